"""A resumed or forked thread's approval policy and sandbox, from its rollout, as 0.169's
app-server chooses them (observed side by side, tests/compat/test_resume_policies_0169.py and
tests/e2e/test_tui_resume_policies_0169.py).

0.169's `thread/resume` and `thread/fork` (its TUI's `resume` too) run the thread under the
approval policy and sandbox its last recorded turn ran with, unless the request, the command
line, `-c` or config.toml choose them. A recorded workspace-write sandbox comes back only in a
trusted folder (read-only elsewhere), with its writable roots (not in a fork) and network
access as configured. The rollout is read in either form of `sandbox_policy` (0.169's `type`,
our older `mode`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from codex_core.config import Config
from codex_core.policies import (
    CHOSEN_APPROVALS,
    GranularApproval,
    ReadOnlyPolicy,
    WorkspaceWritePolicy,
    sandbox_policy_from_wire,
)


def with_recorded_policies(config: Config, rollout: Path, *, fork: bool = False) -> Config:
    """`config` with the policies of `rollout`'s last turn where config chose none (a fork
    keeps the recorded sandbox's kind but not its writable roots, as 0.169's)."""
    from codex_core.rollout.reader import last_turn_context

    try:
        recorded = last_turn_context(rollout)
    except OSError:
        return config
    if recorded is None:
        return config
    changes: dict[str, Any] = {}
    if not config.sandbox_mode_explicit:
        policy = sandbox_policy_from_wire(recorded.get("sandbox_policy"))
        if isinstance(policy, WorkspaceWritePolicy):
            configured = config.sandbox_policy
            network = isinstance(configured, WorkspaceWritePolicy) and configured.network_access
            update: dict[str, Any] = {"network_access": network}
            if fork:
                update["writable_roots"] = []
            policy = policy.model_copy(update=update)
            if config.project_trust_level() != "trusted":
                policy = ReadOnlyPolicy.model_construct()
        if policy is not None:
            changes["sandbox_policy"] = policy
    if not config.approval_policy_explicit:
        changes.update(_approval(recorded.get("approval_policy")))
    return replace(config, **changes) if changes else config


def _approval(value: Any) -> dict[str, Any]:
    if isinstance(value, str) and value in CHOSEN_APPROVALS:
        return {"approval_policy": value, "granular": None}
    if isinstance(value, dict) and isinstance(value.get("granular"), dict):
        try:
            settings = GranularApproval.model_validate(value["granular"])
        except ValueError:
            return {}
        return {"approval_policy": "granular", "granular": settings}
    return {}
