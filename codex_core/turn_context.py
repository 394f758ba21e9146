"""The per-turn settings a turn runs with: where, which model, which policies."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from codex_core.policies import GranularApproval, approval_wire, granular_asks, sandbox_wire
from codex_core.protocol import AskForApproval, SandboxPolicy

_DEFAULT_PROFILES = {"read-only": ":read-only", "workspace-write": ":workspace"}
"""0.169's built-in permission profile a sandbox mode nobody chose stands for."""


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

    def refuses_unasked(self, kind: str) -> bool:
        """Whether `granular`'s settings turn requests of `kind` (a `GranularApproval` field)
        down without asking anyone."""
        return self.approval_policy == "granular" and not granular_asks(
            self.approval_policy, self.granular, kind
        )

    def rollout_payload(
        self, approvals_reviewer: str = "user", default_profile: bool = False
    ) -> dict[str, Any]:
        """The `turn_context` rollout line payload, keys in 0.169's order (the layout puts
        `turn_id` and `root_turn_id` first).

        0.169 also writes `comp_hash` and `multi_agent_version` (values from its model
        catalog, which we do not have): left out.

        Args:
            approvals_reviewer: Who answers approvals (config's `approvals_reviewer`).
            default_profile: No sandbox mode was chosen (0.169 then names its built-in
                profile, `:read-only` or `:workspace`, in `active_permission_profile`).
        """
        from codex_core.rollout.permissions import file_system_sandbox_policy, permission_profile

        cwd = str(self.cwd)
        payload: dict[str, Any] = {
            "disabled_plugin_ids": [],
            "cwd": cwd,
            "approval_policy": approval_wire(self.approval_policy, self.granular),
            "approvals_reviewer": approvals_reviewer,
            "permission_profile": permission_profile(self.sandbox_policy, cwd),
        }
        profile = _DEFAULT_PROFILES.get(self.sandbox_policy.mode)
        if default_profile and profile:
            payload["active_permission_profile"] = {"id": profile}
        payload["model"] = self.model
        payload["collaboration_mode"] = {
            "mode": "default",
            "settings": {
                "model": self.model,
                "reasoning_effort": self.effort or None,
                "developer_instructions": None,
            },
        }
        payload["realtime_active"] = False
        if self.effort:
            payload["effort"] = self.effort
        payload["summary"] = self.summary or "auto"
        payload["sandbox_policy"] = sandbox_wire(self.sandbox_policy)
        file_system = file_system_sandbox_policy(self.sandbox_policy, cwd)
        if file_system is not None:
            payload["file_system_sandbox_policy"] = file_system
        return payload
