"""Record live event streams of scripted sessions into `tests/fixtures/item_streams/`.

Each scenario runs a real `Session` against the scripted model server on 127.0.0.1 (real
HTTP, real SSE, real commands in the sandbox) and writes every event it emits, from
`session_configured` to `shutdown_complete`, one `{"id", "msg"}` object a line. The golden
tests render these streams through each frontend; re-record only when the core's events
change on purpose::

    .venv/bin/python -m tests.items.record_streams
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from codex_core.config import ConfigOverrides, load_config
from codex_core.protocol import (
    CompactOp,
    Event,
    ExecApprovalOp,
    ExecApprovalRequestEvent,
    ExecCommandBeginEvent,
    InterruptOp,
    Op,
    ShutdownCompleteEvent,
    ShutdownOp,
    TaskCompleteEvent,
    TextInput,
    TurnAbortedEvent,
    UserInputOp,
)
from codex_core.protocol.common import AskForApproval
from codex_core.session import Session
from tests.support.model_server import ModelServer
from tests.support.sse import (
    custom_tool_call,
    failure,
    message,
    reasoning,
    shell_call,
    turn,
    update_plan_call,
    usage,
)

STREAMS = Path(__file__).resolve().parents[1] / "fixtures" / "item_streams"
WORKDIR = "/work/proj"
"""The workspace path written into the streams in place of the temporary one."""
TIMEOUT_S = 30.0

Reply = Callable[[Event], Op | None]


class Recorder:
    """One session's events, with a way to drive turns."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.events: list[Event] = []

    async def until(self, done: Callable[[Event], bool], reply: Reply | None = None) -> None:
        async def collect() -> None:
            while True:
                event = await self.session.next_event()
                self.events.append(event)
                answer = reply(event) if reply is not None else None
                if answer is not None:
                    await self.session.submit(answer)
                if done(event):
                    return

        await asyncio.wait_for(collect(), TIMEOUT_S)

    async def turn(self, text: str, reply: Reply | None = None) -> None:
        await self.session.submit(UserInputOp(items=[TextInput(text=text)]))
        await self.until(lambda e: isinstance(e.msg, TaskCompleteEvent | TurnAbortedEvent), reply)

    async def compact(self) -> None:
        await self.session.submit(CompactOp())
        await self.until(lambda e: isinstance(e.msg, TaskCompleteEvent | TurnAbortedEvent))


Scenario = Callable[[Recorder, ModelServer], Awaitable[None]]

PATCH = "*** Begin Patch\n*** Add File: added.txt\n+hello\n*** End Patch\n"


async def message_and_reasoning(rec: Recorder, server: ModelServer) -> None:
    """Reasoning in two summary parts and a streamed answer, over two turns."""
    server.add(
        turn(
            reasoning("Looking at the greeting", "Choosing words"),
            message("Hello there."),
            usage=usage(input=120, output=30, cached=20, reasoning=10),
        ),
        turn(message("Hello again."), usage=usage(input=200, output=8)),
    )
    await rec.turn("say hello")
    await rec.turn("again please")


async def command(rec: Recorder, server: ModelServer) -> None:
    """A command that prints on both streams, one that fails, then an answer."""
    server.add(
        turn(shell_call(["bash", "-lc", "echo hi; echo err >&2"], call_id="call_echo")),
        turn(shell_call(["bash", "-lc", "exit 3"], call_id="call_fail")),
        turn(message("Ran it."), usage=usage(input=50, output=5)),
    )
    await rec.turn("run echo hi")


async def patch(rec: Recorder, server: ModelServer) -> None:
    """A freeform apply_patch adding a file, one that fails, then an answer."""
    broken = "*** Begin Patch\n*** Update File: missing.txt\n@@\n-a\n+b\n*** End Patch\n"
    server.add(
        turn(custom_tool_call("apply_patch", PATCH, call_id="call_patch")),
        turn(custom_tool_call("apply_patch", broken, call_id="call_broken")),
        turn(message("Patched.")),
    )
    await rec.turn("add a file")


async def plan(rec: Recorder, server: ModelServer) -> None:
    """A plan made and updated, then an answer."""
    server.add(
        turn(update_plan_call([("Read", "in_progress"), ("Write", "pending")], "call_p1")),
        turn(
            update_plan_call(
                [("Read", "completed"), ("Write", "completed")], "call_p2", explanation="done"
            )
        ),
        turn(message("Planned and done.")),
    )
    await rec.turn("make a plan")


async def approval_denied(rec: Recorder, server: ModelServer) -> None:
    """Under `untrusted`, a command the user declines, then an answer."""
    server.add(
        turn(shell_call(["bash", "-lc", "touch denied.txt"], call_id="call_denied")),
        turn(message("Okay, not touching it.")),
    )

    def deny(event: Event) -> Op | None:
        if isinstance(event.msg, ExecApprovalRequestEvent):
            return ExecApprovalOp(id=event.msg.call_id, decision="denied")
        return None

    await rec.turn("touch a file", deny)


async def interrupted(rec: Recorder, server: ModelServer) -> None:
    """A long command interrupted while it streams, then a turn that answers."""
    server.add(
        turn(
            reasoning("Starting a long job"),
            shell_call(["bash", "-lc", "echo started; sleep 30"], call_id="call_sleep"),
        ),
        turn(message("Stopped.")),
    )
    begun = False

    def interrupt(event: Event) -> Op | None:
        nonlocal begun
        if isinstance(event.msg, ExecCommandBeginEvent):
            begun = True
        if begun and event.msg.type == "exec_command_output_delta":
            begun = False
            return InterruptOp()
        return None

    await rec.turn("run the long job", interrupt)
    await rec.turn("what happened?")


async def model_failure(rec: Recorder, server: ModelServer) -> None:
    """The model answers with an error: the turn fails."""
    server.add(failure("server_error", "the model is overloaded"))
    await rec.turn("hello?")


async def compaction(rec: Recorder, server: ModelServer) -> None:
    """An answer, then `/compact` (the summary comes from the model)."""
    server.add(turn(message("First answer.")), turn(message("Summary of the talk.")))
    await rec.turn("start")
    await rec.compact()


def _hook(command: str, **extra: Any) -> dict[str, Any]:
    return {"hooks": [{"type": "command", "command": command, **extra}]}


HOOKS: dict[str, dict[str, Any]] = {
    "hooks": {
        "SessionStart": [
            _hook(
                'echo \'{"hookSpecificOutput":{"hookEventName":"SessionStart",'
                '"additionalContext":"remember the hook"}}\''
            )
        ],
        "UserPromptSubmit": [_hook("true", statusMessage="checking the prompt")],
        "PreToolUse": [{"matcher": "Bash", **_hook("true")}],
        "PostToolUse": [{"matcher": "Bash", **_hook("echo broken >&2; exit 1")}],
        "Stop": [_hook("true")],
    }
}
"""hooks.json of scenarios that run hooks (trust bypassed, as `--dangerously-bypass-hook-trust`)."""


async def hooks(rec: Recorder, server: ModelServer) -> None:
    """Hooks around a prompt, a command and the turn's end; one hook fails."""
    server.add(
        turn(shell_call(["bash", "-c", "echo hooked"], call_id="call_hooked")),
        turn(message("Hooks ran.")),
    )
    await rec.turn("run with hooks")


SCENARIOS: dict[str, tuple[AskForApproval, Scenario]] = {
    "message_and_reasoning": ("never", message_and_reasoning),
    "command": ("never", command),
    "patch": ("never", patch),
    "plan": ("never", plan),
    "approval_denied": ("untrusted", approval_denied),
    "interrupted": ("never", interrupted),
    "model_failure": ("never", model_failure),
    "compaction": ("never", compaction),
    "hooks": ("never", hooks),
}


async def record(name: str, home: Path, workdir: Path) -> list[Event]:
    """The events of one scenario's session."""
    policy, scenario = SCENARIOS[name]
    if name in HOOKS:
        (home / "hooks.json").write_text(json.dumps({"hooks": HOOKS[name]}), "utf-8")
    with ModelServer() as server:
        overrides = server.config_overrides(
            "responses", request_max_retries=0, stream_max_retries=0
        )
        config = load_config(
            ConfigOverrides(
                cwd=workdir,
                approval_policy=policy,
                sandbox_mode="workspace-write",
                bypass_hook_trust=name in HOOKS,
            ),
            [*overrides, 'model = "gpt-5.5"'],
            codex_home=home,
        )
        session = await Session.create(config, source="exec")
        rec = Recorder(session)
        await rec.until(lambda e: e.msg.type == "session_configured")
        await scenario(rec, server)
        await session.submit(ShutdownOp())
        await rec.until(lambda e: isinstance(e.msg, ShutdownCompleteEvent))
        server.assert_script_consumed()
    return rec.events


def stream_lines(events: list[Event], workdir: Path, home: Path) -> str:
    """The events as JSON lines, temporary paths replaced by stable ones."""
    text = "".join(json.dumps(e.model_dump(mode="json"), ensure_ascii=False) + "\n" for e in events)
    for real, stable in ((str(workdir), WORKDIR), (str(home), "/work/codex-home")):
        text = text.replace(json.dumps(real)[1:-1], stable)
    return text


async def main(names: list[str]) -> None:
    STREAMS.mkdir(parents=True, exist_ok=True)
    for name in names or list(SCENARIOS):
        with tempfile.TemporaryDirectory() as tmp:
            home, workdir = Path(tmp) / "home", Path(tmp) / "proj"
            home.mkdir()
            workdir.mkdir()
            os.environ["CODEX_HOME"] = str(home)
            os.environ["OPENAI_API_KEY"] = "sk-test-record"
            events = await record(name, home, workdir)
            (STREAMS / f"{name}.jsonl").write_text(stream_lines(events, workdir, home), "utf-8")
            print(f"{name}: {len(events)} events")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
