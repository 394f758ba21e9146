"""What one hook run means for its event, from its exit code and output (0.169's rules).

- A timeout, a crash (exit code other than 0 and 2) or JSON that is not valid: the run
  failed and blocks nothing.
- Exit code 2 with a reason on stderr blocks, as the `block`/`deny` answers do.
- `hookSpecificOutput.additionalContext` of SessionStart, UserPromptSubmit, PreToolUse and
  PostToolUse becomes a developer message; plain (non-JSON) stdout does too for
  SessionStart and UserPromptSubmit, and is ignored elsewhere.
- PreToolUse: `permissionDecision: "deny"` (or the legacy `decision: "block"`) blocks the
  call. UserPromptSubmit: `decision: "block"` drops the prompt. PostToolUse:
  `decision: "block"` replaces the call's output with the reason, `continue: false` with
  the stop reason. Stop: `decision: "block"` with a reason continues the turn with it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from codex_core.hooks.runner import RunResult

Status = Literal["completed", "blocked", "failed", "stopped"]
CONTEXT_EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse")
PLAIN_CONTEXT_EVENTS = ("SessionStart", "UserPromptSubmit")


@dataclass
class Outcome:
    """One run, interpreted."""

    status: Status
    reason: str | None = None
    """Why it blocked (the deny / block reason, or the replacement output)."""
    context: list[str] = field(default_factory=list)
    error: str | None = None
    """Why it failed, for the log and the TUI."""
    permission: str | None = None
    """PermissionRequest: `allow` or `deny` (None: let the user decide)."""


def interpret(event: str, run: RunResult) -> Outcome:
    """The outcome of `run` for a hook of `event`."""
    if run.error is not None:
        return Outcome("failed", error=run.error)
    if run.timed_out:
        return Outcome("failed", error="timed out")
    if run.exit_code == 2:
        reason = run.stderr.strip()
        if not reason:
            return Outcome(
                "failed",
                error=f"{event} hook exited with code 2 but did not "
                "write a blocking reason to stderr",
            )
        return Outcome("stopped" if event == "PostToolUse" else "blocked", reason=reason)
    if run.exit_code != 0:
        return Outcome("failed", error=f"hook exited with code {run.exit_code}")
    text = run.stdout.strip()
    if not text:
        return Outcome("completed")
    if not text.startswith("{"):
        context = [text] if event in PLAIN_CONTEXT_EVENTS else []
        return Outcome("completed", context=context)
    try:
        data = json.loads(text)
    except ValueError:
        return Outcome("failed", error=f"hook returned invalid {event} JSON output")
    if not isinstance(data, dict):
        return Outcome("failed", error=f"hook returned invalid {event} JSON output")
    return _from_json(event, data)


def _from_json(event: str, data: dict[str, Any]) -> Outcome:
    specific = data.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    context = specific.get("additionalContext")
    contexts = [context] if isinstance(context, str) and context and event in CONTEXT_EVENTS else []
    decision = data.get("decision")
    reason = data.get("reason") if isinstance(data.get("reason"), str) else None
    if event == "PreToolUse":
        if specific.get("permissionDecision") == "deny":
            why = specific.get("permissionDecisionReason")
            return Outcome("blocked", reason=why if isinstance(why, str) else "", context=contexts)
        if decision == "block":
            return Outcome("blocked", reason=reason or "", context=contexts)
    elif event == "UserPromptSubmit" and decision == "block":
        return Outcome("blocked", reason=reason, context=contexts)
    elif event == "PostToolUse":
        if decision == "block":
            return Outcome("blocked", reason=reason or "", context=contexts)
        if data.get("continue") is False:
            stop = data.get("stopReason")
            return Outcome(
                "stopped", reason=stop if isinstance(stop, str) else "", context=contexts
            )
    elif event == "PermissionRequest":
        choice = specific.get("decision")
        behavior = choice.get("behavior") if isinstance(choice, dict) else None
        if behavior == "deny":
            message = choice.get("message") if isinstance(choice, dict) else None
            return Outcome(
                "blocked", reason=message if isinstance(message, str) else "", permission="deny"
            )
        if behavior == "allow":
            return Outcome("completed", permission="allow")
    elif event == "Stop" and decision == "block":
        if not reason or not reason.strip():
            return Outcome(
                "failed", error="hook returned decision:block without a non-empty reason"
            )
        return Outcome("blocked", reason=reason)
    return Outcome("completed", context=contexts)
