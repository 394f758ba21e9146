"""`turn_context`'s sandbox policy both ways: written in 0.169's `type` form, read in that form
and in our older `mode` form (rollouts already on users' disks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.policies import (
    DangerFullAccessPolicy,
    ReadOnlyPolicy,
    WorkspaceWritePolicy,
    sandbox_policy_from_wire,
    sandbox_wire,
)
from codex_core.rollout.layout import new_session_layout
from codex_core.rollout.permissions import file_system_sandbox_policy, permission_profile
from codex_core.rollout.state_db import ThreadFacts
from codex_core.turn_context import TurnContext

WORKSPACE = WorkspaceWritePolicy(writable_roots=["/w/extra"], network_access=True)


def test_sandbox_wire_is_0169s_type_form() -> None:
    assert sandbox_wire(ReadOnlyPolicy()) == {"type": "read-only"}
    assert sandbox_wire(DangerFullAccessPolicy()) == {"type": "danger-full-access"}
    assert list(sandbox_wire(WorkspaceWritePolicy())) == [
        "type",
        "network_access",
        "exclude_tmpdir_env_var",
        "exclude_slash_tmp",
    ], "no writable_roots when there are none"
    assert sandbox_wire(WORKSPACE)["writable_roots"] == ["/w/extra"]


@pytest.mark.parametrize(
    "policy", [ReadOnlyPolicy(), DangerFullAccessPolicy(), WorkspaceWritePolicy(), WORKSPACE]
)
def test_sandbox_policy_read_in_both_forms(policy: object) -> None:
    assert isinstance(policy, ReadOnlyPolicy | DangerFullAccessPolicy | WorkspaceWritePolicy)
    assert sandbox_policy_from_wire(sandbox_wire(policy)) == policy
    assert sandbox_policy_from_wire(policy.to_wire()) == policy  # {"mode": ...}, as before


@pytest.mark.parametrize(
    "value",
    [
        None,
        "read-only",
        {},
        {"type": "everything"},
        {"mode": "workspace-write", "network_access": "x"},
    ],
)
def test_sandbox_policy_unreadable_is_none(value: object) -> None:
    assert sandbox_policy_from_wire(value) is None


def test_state_db_row_from_either_form_and_from_0169s_recorded_profile() -> None:
    old = {"cwd": "/w", "sandbox_policy": WORKSPACE.to_wire()}
    new = TurnContext(Path("/w"), "m", "never", WORKSPACE).rollout_payload()
    for payload in (old, new):
        facts = ThreadFacts("id", "path", 0, cwd="/elsewhere")
        facts.observe("turn_context", payload)
        assert facts.permission_profile == permission_profile(WORKSPACE, "/w")
    recorded = {"permission_profile": {"type": "disabled"}, "sandbox_policy": {"type": "x"}}
    facts = ThreadFacts("id", "path", 0)
    facts.observe("turn_context", recorded)
    assert facts.permission_profile == {"type": "disabled"}


def test_workspace_entries_as_0169_orders_them() -> None:
    policy = WorkspaceWritePolicy(writable_roots=["/w/x"], exclude_tmpdir_env_var=True)
    entries = permission_profile(policy, "/w")["file_system"]["entries"]
    paths = [e["path"].get("path") or e["path"]["value"]["kind"] for e in entries]
    assert paths[:4] == ["root", "/w", "/w/x", "slash_tmp"], "tmpdir excluded"
    assert paths[4:6] == ["/w/.git", "/w/x/.git"], "protected names grouped by name"
    assert file_system_sandbox_policy(policy, "/w") == {"kind": "restricted", "entries": entries}
    assert file_system_sandbox_policy(ReadOnlyPolicy(), "/w") is None
    assert permission_profile(WORKSPACE, "/w")["network"] == "enabled"


def test_layout_puts_the_turn_ids_first() -> None:
    layout = new_session_layout("thread", "/w")
    payload = TurnContext(Path("/w"), "m", "never", ReadOnlyPolicy()).rollout_payload()
    [(kind, line)] = layout.lines_for("turn_context", payload)
    assert kind == "turn_context"
    assert list(line)[:3] == ["turn_id", "root_turn_id", "disabled_plugin_ids"]
    assert line["root_turn_id"] == line["turn_id"] == layout.turn_id


def test_active_permission_profile_only_when_no_sandbox_was_chosen() -> None:
    # Seen with 0.169: `:read-only` in exec by default, `:workspace` on an app-server thread
    # in a trusted folder; none with -s or sandbox_mode.
    for policy, profile in (
        (ReadOnlyPolicy(), ":read-only"),
        (WorkspaceWritePolicy(), ":workspace"),
    ):
        context = TurnContext(Path("/w"), "m", "never", policy)
        assert context.rollout_payload(default_profile=True)["active_permission_profile"] == {
            "id": profile
        }
        assert "active_permission_profile" not in context.rollout_payload()
    no_sandbox = TurnContext(Path("/w"), "m", "never", DangerFullAccessPolicy())
    assert "active_permission_profile" not in no_sandbox.rollout_payload(default_profile=True)
