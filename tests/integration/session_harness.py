"""In-process harness: a real Session against the scripted model server, answering approvals.

A test builds a workspace (the only writable root, plus a directory outside it), starts a
session whose provider points at the scripted server, then drives turns::

    session = await start_session(model_server, workspace, codex_home, "on-request")
    events = await run_turn(session, "go", answer_all("approved"))
    await shutdown(session)
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from codex_core.config import ConfigOverrides, load_config
from codex_core.protocol import (
    ApplyPatchApprovalRequestEvent,
    EventMsg,
    ExecApprovalOp,
    ExecApprovalRequestEvent,
    Op,
    PatchApprovalOp,
    ReviewDecision,
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
from tests.support.sse import Wire

EVENT_TIMEOUT_S = 20.0
API_KEY = "sk-test-harness"

OnEvent = Callable[[EventMsg], Op | None]
"""Called with every event; an Op it returns is submitted (how tests answer approvals)."""


@dataclass(frozen=True)
class Workspace:
    """`root` is the session cwd and the only writable root; `outside` is not writable."""

    root: Path
    outside: Path


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Workspace]:
    """A fresh workspace and an outside directory; the provider's API key set in the env."""
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    root = tmp_path / "workspace"
    outside = tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    yield Workspace(root, outside)


def provider_overrides(server: ModelServer, wire_api: Wire = "responses") -> list[str]:
    """`-c` strings selecting a provider that points at the scripted server."""
    return server.config_overrides(wire_api, request_max_retries=0, stream_max_retries=0)


async def start_session(
    server: ModelServer,
    workspace: Workspace,
    codex_home: Path,
    approval_policy: AskForApproval,
    *,
    sandbox_mode: str = "workspace-write",
    wire_api: Wire = "responses",
) -> Session:
    """A session in `workspace.root` whose only writable root is that directory.

    /tmp and $TMPDIR are excluded from the writable roots so that `workspace.outside` (a
    pytest tmp dir) really is outside them.
    """
    config = load_config(
        ConfigOverrides(
            cwd=workspace.root, approval_policy=approval_policy, sandbox_mode=sandbox_mode
        ),
        [
            *provider_overrides(server, wire_api),
            "sandbox_workspace_write.exclude_slash_tmp = true",
            "sandbox_workspace_write.exclude_tmpdir_env_var = true",
        ],
        codex_home=codex_home,
    )
    session = await Session.create(config, source="exec")
    await run_until(session, lambda msg: msg.type == "session_configured")
    return session


async def run_until(
    session: Session,
    predicate: Callable[[EventMsg], bool],
    on_event: OnEvent | None = None,
    timeout: float = EVENT_TIMEOUT_S,
) -> list[EventMsg]:
    """Collect events up to and including the first one matching `predicate`.

    Args:
        session: The running session.
        predicate: Stops the collection when it returns True for an event.
        on_event: Sees every event; an Op it returns is submitted at once.
        timeout: Seconds to wait for the whole sequence before failing the test.
    """
    events: list[EventMsg] = []

    async def collect() -> None:
        while True:
            msg = (await session.next_event()).msg
            events.append(msg)
            reply = on_event(msg) if on_event is not None else None
            if reply is not None:
                await session.submit(reply)
            if predicate(msg):
                return

    try:
        await asyncio.wait_for(collect(), timeout)
    except TimeoutError:
        seen = ", ".join(m.type for m in events)
        raise AssertionError(f"no matching event within {timeout}s; saw: {seen}") from None
    return events


def turn_ended(msg: EventMsg) -> bool:
    """A turn's last event: `task_complete` or `turn_aborted`."""
    return isinstance(msg, TaskCompleteEvent | TurnAbortedEvent)


async def run_turn(
    session: Session, text: str = "go", on_event: OnEvent | None = None
) -> list[EventMsg]:
    """Submit user input and collect events until the turn ends."""
    await session.submit(UserInputOp(items=[TextInput(text=text)]))
    return await run_until(session, turn_ended, on_event)


async def shutdown(session: Session) -> None:
    """Shut the session down and wait until it says so (the rollout is then complete)."""
    await session.submit(ShutdownOp())
    await run_until(session, lambda msg: isinstance(msg, ShutdownCompleteEvent))


class Approver:
    """Answers approval requests from a per-call-id table (or one default decision).

    Every request it sees is kept in `requests`, in order, for assertions.
    """

    def __init__(
        self,
        default: ReviewDecision | None = "approved",
        by_call: dict[str, ReviewDecision] | None = None,
    ) -> None:
        self.default = default
        self.by_call = dict(by_call or {})
        self.requests: list[ExecApprovalRequestEvent | ApplyPatchApprovalRequestEvent] = []

    def __call__(self, msg: EventMsg) -> Op | None:
        """The answer to `msg` if it is an approval request."""
        if not isinstance(msg, ExecApprovalRequestEvent | ApplyPatchApprovalRequestEvent):
            return None
        self.requests.append(msg)
        decision = self.by_call.get(msg.call_id, self.default)
        if decision is None:
            raise AssertionError(f"unexpected approval request for call {msg.call_id}")
        if isinstance(msg, ExecApprovalRequestEvent):
            return ExecApprovalOp(id=msg.call_id, decision=decision)
        return PatchApprovalOp(id=msg.call_id, decision=decision)

    @property
    def asked(self) -> list[str]:
        """Call ids of every approval request, in order."""
        return [r.call_id for r in self.requests]


def event_types(events: list[EventMsg], *wanted: str) -> list[str]:
    """The types of `events`, keeping only `wanted` ones when given."""
    return [m.type for m in events if not wanted or m.type in wanted]


def tool_outputs(server: ModelServer) -> dict[str, str]:
    """Every tool output the model received, by call id (Responses `input` or chat `messages`)."""
    outputs: dict[str, str] = {}
    for body in server.bodies:
        for item in body.get("input") or []:
            if item.get("type") in ("function_call_output", "custom_tool_call_output"):
                output = item["output"]
                outputs[item["call_id"]] = output if isinstance(output, str) else json.dumps(output)
        for msg in body.get("messages") or []:
            if msg.get("role") == "tool":
                outputs[msg["tool_call_id"]] = msg["content"]
    return outputs


def rollout_event_payloads(path: Path | None) -> list[dict[str, Any]]:
    """The `event_msg` payloads of a rollout file, in order."""
    assert path is not None, "the session has no rollout file"
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    return [line["payload"] for line in lines if line["type"] == "event_msg"]
