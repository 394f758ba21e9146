"""Whatever a hook does — garbage, floods, hangs, crashes — every call still gets exactly one
output, every hook run that starts ends, and every turn ends (issue 25's property).

Real hook processes in a real session against the scripted model server; the behaviour of
each hook is drawn by hypothesis and handed to the hook script through a file.
"""

from __future__ import annotations

import asyncio
import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codex_core.hooks.sources import load_hooks
from codex_core.protocol import InterruptOp, TaskCompleteEvent, TurnAbortedEvent
from tests.integration.session_harness import Workspace, run_turn, shutdown, start_session
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn

HOOK = """
import json, os, sys, time
plan = json.load(open(os.environ["HOOK_PLAN"]))
step = plan.pop(0) if plan else {"out": "", "code": 0}
json.dump(plan, open(os.environ["HOOK_PLAN"], "w"))
sys.stdin.read()
if step.get("sleep"):
    time.sleep(step["sleep"])
out = step["out"].encode("latin-1") * step.get("repeat", 1)
sys.stdout.buffer.write(out)
sys.stdout.flush()
sys.exit(step["code"])
"""

outputs = st.one_of(
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
    st.sampled_from(
        [
            '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}',
            '{"decision":"block","reason":"r"}',
            '{"continue":false}',
            '{"hookSpecificOutput":{"additionalContext":"ctx"}}',
            "{not json",
            "",
        ]
    ),
)
steps = st.fixed_dictionaries(
    {"out": outputs, "code": st.sampled_from([0, 0, 1, 2, 137])},
    optional={"sleep": st.sampled_from([0.0, 3.0]), "repeat": st.sampled_from([1, 20_000])},
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plan=st.lists(steps, min_size=1, max_size=6), interrupt=st.booleans())
def test_hook_faults_leave_every_call_answered_and_every_turn_ended(
    plan: list[dict[str, object]],
    interrupt: bool,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    root = tmp_path_factory.mktemp("hookfaults")
    workspace = Workspace(root / "ws", root / "outside")
    workspace.root.mkdir()
    workspace.outside.mkdir()
    home = root / "home"
    home.mkdir()
    script = root / "hook.py"
    script.write_text(HOOK)
    plan_file = root / "plan.json"
    plan_file.write_text(json.dumps(plan))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("HOOK_PLAN", str(plan_file))
    handler = {"type": "command", "command": f"{sys.executable} {script}", "timeout": 1}
    groups = [{"hooks": [handler]}]
    events = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop")
    (home / "hooks.json").write_text(json.dumps({"hooks": {e: groups for e in events}}))
    trusted = "".join(
        f'[hooks.state."{h.key}"]\ntrusted_hash = "{h.current_hash}"\n'
        for h in load_hooks(home, {}, None).hooks
    )
    (home / "config.toml").write_text(trusted)

    async def run(server: ModelServer) -> None:
        session = await start_session(
            server, workspace, home, "never", sandbox_mode="danger-full-access"
        )
        interrupted = False

        def on_event(msg: object) -> InterruptOp | None:
            nonlocal interrupted
            if interrupt and not interrupted and getattr(msg, "type", "") == "hook_started":
                interrupted = True
                return InterruptOp()
            return None

        events_seen = await run_turn(session, "go", on_event)
        assert isinstance(events_seen[-1], TaskCompleteEvent | TurnAbortedEvent)
        started = [e.run.id for e in events_seen if e.type == "hook_started"]
        ended = [e.run.id for e in events_seen if e.type == "hook_completed"]
        assert sorted(started) == sorted(ended), "a hook run never ended"
        await shutdown(session)

    script_turns = [
        turn(
            function_call("exec_command", {"cmd": "echo one"}, call_id="c1"),
            function_call("exec_command", {"cmd": "echo two"}, call_id="c2"),
        ),
        turn(message("done")),
        turn(message("again")),
        turn(message("more")),
    ]
    with ModelServer(script_turns) as server:
        asyncio.run(asyncio.wait_for(run(server), 60))
        server.check_pairing()
