"""A session's hooks: run those an event selects, concurrently, and fold what they said.

Each run is reported as a `hook_started` / `hook_completed` pair (exactly one end per
start, also when the turn is interrupted). The caller gets one `HookAnswer` for the
event: blocked or not and why, the additional context to add, the replacement output of a
PostToolUse block, the continuations a Stop hook asks for.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codex_core.hooks.catalog import HookCatalog, HookDef
from codex_core.hooks.matching import matches
from codex_core.hooks.outcome import Outcome, interpret
from codex_core.hooks.runner import run_hook_command
from codex_core.protocol import EventMsg, HookCompletedEvent, HookRun, HookStartedEvent

BYPASS_WARNING = (
    "`--dangerously-bypass-hook-trust` is enabled. Enabled hooks may run without review for "
    "this invocation."
)


@dataclass(frozen=True)
class HookScope:
    """What every payload of the session says about where it runs."""

    session_id: str
    transcript_path: str | None
    cwd: Path
    model: str
    permission_mode: str


@dataclass
class HookAnswer:
    """What the hooks of one event decided, together."""

    blocked: bool = False
    reason: str | None = None
    contexts: list[str] = field(default_factory=list)
    replacement: str | None = None
    continuations: list[tuple[str, str]] = field(default_factory=list)
    """(hook_run_id, reason) of each Stop hook that asks the turn to go on."""
    permission: str | None = None
    """PermissionRequest: `deny` if any hook denies, else `allow` if one allows, else None."""


class SessionHooks:
    """The hooks of one session."""

    def __init__(self, catalog: HookCatalog, *, bypass_trust: bool = False) -> None:
        self.catalog = catalog
        self.bypass_trust = bypass_trust
        self.started = False
        """Whether SessionStart ran (once per session, on its first turn)."""

    def any_for(self, event: str) -> bool:
        """Whether some hook of `event` may run (cheap: callers skip payload work if not)."""
        return bool(self.catalog.runnable(event, bypass_trust=self.bypass_trust))

    async def run(
        self,
        event: str,
        scope: HookScope,
        fields: Mapping[str, Any],
        emit: Callable[[EventMsg], None],
        *,
        turn_id: str | None = None,
        subject: str | None = None,
    ) -> HookAnswer:
        """Run every hook of `event` whose matcher selects `subject` (a tool name, a source)."""
        selected = [
            hook
            for hook in self.catalog.runnable(event, bypass_trust=self.bypass_trust)
            if matches(hook.matcher, subject)
        ]
        if not selected:
            return HookAnswer()
        payload = _payload(event, scope, fields, turn_id)
        outcomes = await asyncio.gather(*(self._run_one(h, payload, scope, emit) for h in selected))
        return _fold(event, list(zip(selected, outcomes, strict=True)))

    async def _run_one(
        self, hook: HookDef, payload: bytes, scope: HookScope, emit: Callable[[EventMsg], None]
    ) -> Outcome:
        order = self.catalog.hooks.index(hook)
        run = HookRun(
            # 0.169's run id names the hook (`stop:2:<file>`), the same on every run
            id=f"{hook.event.label.replace('_', '-')}:{order}:{hook.source_path}",
            event_name=hook.event.name,
            source_path=str(hook.source_path),
            source=hook.source,
            scope="turn" if hook.event.turn_scoped else "thread",
            display_order=order,
            status_message=hook.status_message,
            started_at=int(time.time()),
        )
        emit(HookStartedEvent(run=run))
        outcome = Outcome("failed", error="interrupted")
        try:
            env = dict(os.environ)
            command = hook.command
            if hook.plugin is not None:
                env.update(hook.plugin.env)
                for name, value in hook.plugin.env:
                    command = command.replace("${" + name + "}", value)
            result = await run_hook_command(command, payload, scope.cwd, hook.timeout, env)
            outcome = interpret(hook.event.name, result)
            run = run.model_copy(update={"duration_ms": result.duration_ms})
        finally:
            emit(HookCompletedEvent(run=_ended(run, outcome)))
        return outcome


def _payload(event: str, scope: HookScope, fields: Mapping[str, Any], turn_id: str | None) -> bytes:
    """The JSON on the hook's stdin, fields in 0.169's order."""
    data: dict[str, Any] = {"session_id": scope.session_id}
    if turn_id is not None:
        data["turn_id"] = turn_id
    data["transcript_path"] = scope.transcript_path
    data["cwd"] = str(scope.cwd)
    data["hook_event_name"] = event
    data["model"] = scope.model
    data["permission_mode"] = scope.permission_mode
    data.update(fields)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _ended(run: HookRun, outcome: Outcome) -> HookRun:
    entries = [{"kind": "context", "text": text} for text in outcome.context]
    if outcome.reason:
        entries.append(
            {"kind": "stop" if outcome.status == "stopped" else "feedback", "text": outcome.reason}
        )
    if outcome.error:
        entries.append({"kind": "error", "text": outcome.error})
    return run.model_copy(update={"status": outcome.status, "entries": entries})


def _fold(event: str, runs: list[tuple[HookDef, Outcome]]) -> HookAnswer:
    answer = HookAnswer()
    for hook, outcome in runs:
        answer.contexts.extend(outcome.context)
        if outcome.permission == "deny" or (outcome.permission and answer.permission is None):
            answer.permission = outcome.permission
        if outcome.status not in ("blocked", "stopped"):
            continue
        if event == "Stop":
            run_id = f"{hook.event.label}:{hook.group}:{hook.source_path}"
            answer.continuations.append((run_id, outcome.reason or ""))
        elif not answer.blocked:
            answer.blocked = True
            answer.reason = outcome.reason
            if event == "PostToolUse":
                answer.replacement = outcome.reason or ""
    return answer
