"""What a resumed app-server thread takes from its rollout's last `turn_context`, and what it
refuses: anything config chose, anything unreadable (side by side: test_resume_policies_0169)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codex_core.config import Config
from codex_core.config.types import ProjectConfig
from codex_core.policies import (
    DangerFullAccessPolicy,
    GranularApproval,
    ReadOnlyPolicy,
    WorkspaceWritePolicy,
)
from codex_core.servers.app_server.recorded_policies import with_recorded_policies


def _rollout(tmp_path: Path, *contexts: dict[str, Any]) -> Path:
    path = tmp_path / "rollout.jsonl"
    lines = [{"type": "session_meta", "payload": {"id": "x"}}]
    lines += [{"type": "turn_context", "payload": c} for c in contexts]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\ntorn {", "utf-8")
    return path


def test_last_turn_policies_in_either_form(tmp_path: Path) -> None:
    config = Config(codex_home=tmp_path, cwd=tmp_path)
    older = {"approval_policy": "on-failure", "sandbox_policy": {"mode": "read-only"}}
    last = {"approval_policy": "never", "sandbox_policy": {"type": "danger-full-access"}}
    resumed = with_recorded_policies(config, _rollout(tmp_path, older, last))
    assert (resumed.approval_policy, resumed.sandbox_policy) == ("never", DangerFullAccessPolicy())
    old_form = {"approval_policy": "never", "sandbox_policy": {"mode": "danger-full-access"}}
    resumed = with_recorded_policies(config, _rollout(tmp_path, old_form))
    assert resumed.sandbox_policy == DangerFullAccessPolicy()


def test_workspace_write_only_in_a_trusted_folder(tmp_path: Path) -> None:
    recorded = {"sandbox_policy": {"type": "workspace-write", "writable_roots": ["/x"]}}
    rollout = _rollout(tmp_path, recorded)
    untrusted = Config(codex_home=tmp_path, cwd=tmp_path)
    assert with_recorded_policies(untrusted, rollout).sandbox_policy == ReadOnlyPolicy()
    trusted = Config(
        codex_home=tmp_path,
        cwd=tmp_path,
        projects={str(tmp_path): ProjectConfig(trust_level="trusted")},
        sandbox_policy=WorkspaceWritePolicy(network_access=True),
    )
    policy = with_recorded_policies(trusted, rollout).sandbox_policy
    assert policy == WorkspaceWritePolicy(writable_roots=["/x"], network_access=True)
    forked = with_recorded_policies(trusted, rollout, fork=True).sandbox_policy
    assert forked == WorkspaceWritePolicy(network_access=True)


def test_chosen_or_unreadable_policies_stay_configs(tmp_path: Path) -> None:
    chosen = Config(
        codex_home=tmp_path,
        cwd=tmp_path,
        sandbox_mode_explicit=True,
        approval_policy_explicit=True,
    )
    recorded = {"approval_policy": "never", "sandbox_policy": {"type": "danger-full-access"}}
    assert with_recorded_policies(chosen, _rollout(tmp_path, recorded)) == chosen
    config = Config(codex_home=tmp_path, cwd=tmp_path)
    for bad in (
        {"approval_policy": "always", "sandbox_policy": {"type": "everything"}},
        {"approval_policy": {"granular": {"rules": "yes"}}, "sandbox_policy": "danger"},
        {"approval_policy": 3, "sandbox_policy": {"type": "workspace-write", "writable_roots": 1}},
    ):
        assert with_recorded_policies(config, _rollout(tmp_path, bad)) == config
    assert with_recorded_policies(config, tmp_path / "gone.jsonl") == config


def test_granular_comes_back_with_its_settings(tmp_path: Path) -> None:
    settings = {"sandbox_approval": True, "rules": False, "mcp_elicitations": True}
    recorded = {"approval_policy": {"granular": settings}}
    config = Config(codex_home=tmp_path, cwd=tmp_path)
    resumed = with_recorded_policies(config, _rollout(tmp_path, recorded))
    assert resumed.approval_policy == "granular"
    assert resumed.granular == GranularApproval(**settings)
