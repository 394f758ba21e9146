"""The per-turn settings a turn runs with: where, which model, which policies."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from codex_core.policies import GranularApproval, approval_wire
from codex_core.protocol import AskForApproval, SandboxPolicy


@dataclass(frozen=True)
class TurnContext:
    """Settings fixed for the duration of one turn; ops may change them between turns."""

    cwd: Path
    model: str
    approval_policy: AskForApproval
    sandbox_policy: SandboxPolicy
    granular: GranularApproval | None = None
    """`granular`'s settings (None: DEFAULT_GRANULAR); kept only while the policy is granular."""
    effort: str | None = None
    summary: str | None = None
    shell_timeout_ms: int = 10_000

    def with_changes(self, **changes: Any) -> TurnContext:
        """A copy with the non-None `changes` applied; a new approval policy brings its own
        `granular` settings (none unless given)."""
        applied = {k: v for k, v in changes.items() if v is not None}
        if "approval_policy" in applied and "granular" not in applied:
            applied["granular"] = None
        return replace(self, **applied)

    def rollout_payload(self) -> dict[str, Any]:
        """The `turn_context` rollout line payload."""
        payload: dict[str, Any] = {
            "cwd": str(self.cwd),
            "approval_policy": approval_wire(self.approval_policy, self.granular),
            "sandbox_policy": self.sandbox_policy.to_wire(),
            "model": self.model,
            "summary": self.summary or "auto",
        }
        if self.effort:
            payload["effort"] = self.effort
        return payload
