"""The TUI's default sandbox mode and approval policy per folder trust, and what `granular`
(0.169's policy for a folder with no trust decision) lets through: recorded from codex-rust
0.169 in tests/fixtures/tui_policies_0169.json (the pty side: tests/e2e/test_tui_policies_0169)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codex_core.config import ConfigOverrides, load_config
from codex_core.config.resolve import default_policies
from codex_core.policies import GRANULAR_WIRE
from codex_core.protocol.common import WorkspaceWritePolicy
from codex_core.safety import (
    AskUser,
    AutoApprove,
    Reject,
    assess_command_safety,
    assess_patch_safety,
)
from codex_core.servers.app_server.model_thread import approval_to_wire
from codex_tui.app.wire_values import wire_approval

FIXTURE = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "tui_policies_0169.json").read_text()
)


@pytest.mark.parametrize("case", sorted(FIXTURE["cases"]))
def test_tui_defaults_follow_trust_as_0169(case: str, tmp_path: Path) -> None:
    seen = FIXTURE["cases"][case]
    home, folder = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    folder.mkdir()
    if seen["trust_level"] is not None:
        (home / "config.toml").write_text(
            f'[projects."{folder}"]\ntrust_level = "{seen["trust_level"]}"\n'
        )
    tui = ConfigOverrides(cwd=folder, tui_policies=True)
    config = load_config(tui, [], codex_home=home, environ={})
    assert config.approval_policy == seen["approval_policy"]
    assert config.sandbox_policy.mode == seen["sandbox_mode"]
    # exec and the app-server's own clients keep theirs: distrust is a read-only sandbox
    plain = load_config(ConfigOverrides(cwd=folder), [], codex_home=home, environ={})
    assert plain.approval_policy == "on-request"
    expected = "workspace-write" if seen["trust_level"] == "trusted" else "read-only"
    assert plain.sandbox_policy.mode == expected


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        # 0.169 in a pty, folder outside git with no trust: /status "Read Only (Ask for
        # approval)", "Workspace (Ask for approval)" twice
        ({"sandbox_mode": "read-only"}, ("read-only", "on-request")),
        ({"sandbox_mode": "workspace-write"}, ("workspace-write", "on-request")),
        ({"approval_policy": "on-request"}, ("workspace-write", "on-request")),
    ],
)
def test_granular_only_when_neither_policy_is_chosen(
    tmp_path: Path, flags: dict[str, str], expected: tuple[str, str]
) -> None:
    chosen = ConfigOverrides(cwd=tmp_path, tui_policies=True, **flags)  # type: ignore[arg-type]
    config = load_config(chosen, [], codex_home=tmp_path, environ={})
    assert (config.sandbox_policy.mode, config.approval_policy) == expected


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        # 0.169, a folder recorded untrusted: "Read Only (untrusted)", "Custom (workspace,
        # untrusted)", "Workspace (Ask for approval)" (the fixture's with_flags_recorded_untrusted)
        ({"sandbox_mode": "read-only"}, ("read-only", "untrusted")),
        ({"sandbox_mode": "workspace-write"}, ("workspace-write", "untrusted")),
        ({"approval_policy": "on-request"}, ("workspace-write", "on-request")),
    ],
)
def test_an_untrusted_folder_keeps_untrusted_beside_a_chosen_sandbox(
    tmp_path: Path, flags: dict[str, str], expected: tuple[str, str]
) -> None:
    (tmp_path / "config.toml").write_text(f'[projects."{tmp_path}"]\ntrust_level = "untrusted"\n')
    chosen = ConfigOverrides(cwd=tmp_path, tui_policies=True, **flags)  # type: ignore[arg-type]
    config = load_config(chosen, [], codex_home=tmp_path, environ={})
    assert (config.sandbox_policy.mode, config.approval_policy) == expected


def test_flags_and_config_beat_the_tui_defaults(tmp_path: Path) -> None:
    chosen = ConfigOverrides(cwd=tmp_path, tui_policies=True, sandbox_mode="read-only")
    config = load_config(chosen, ["approval_policy=never"], codex_home=tmp_path, environ={})
    assert (config.sandbox_policy.mode, config.approval_policy) == ("read-only", "never")
    assert default_policies(None, tui=False) == ("read-only", "on-request")


def test_granular_on_the_wire_is_0169s_object() -> None:
    assert approval_to_wire("granular") == {"granular": FIXTURE["granular_config"]}
    assert approval_to_wire("granular") == GRANULAR_WIRE
    assert approval_to_wire("on-request") == "on-request"
    assert wire_approval(GRANULAR_WIRE) == "granular"


def test_granular_rejects_leaving_the_sandbox_without_asking(tmp_path: Path) -> None:
    policy = WorkspaceWritePolicy()
    escalated = assess_command_safety(
        ["touch", "/x"], "granular", policy, set(), with_escalated_permissions=True
    )
    assert isinstance(escalated, Reject)
    assert "`granular`" in escalated.reason
    # inside the sandbox a command runs (no asking either way)
    inside = assess_command_safety(["touch", "x"], "granular", policy, set())
    assert isinstance(inside, AutoApprove)
    # a `.rules` prompt is not asked either (0.169: rules = false)
    ruled = assess_command_safety(["rm", "x"], "granular", policy, set(), rule_decision="prompt")
    assert isinstance(ruled, Reject)
    # under on-request the same escalation is asked about
    asked = assess_command_safety(
        ["touch", "/x"], "on-request", policy, set(), with_escalated_permissions=True
    )
    assert isinstance(asked, AskUser)


def test_granular_writes_in_the_workspace_and_refuses_outside(tmp_path: Path) -> None:
    policy = WorkspaceWritePolicy()
    work = tmp_path / "work"
    work.mkdir()
    inside = assess_patch_safety([Path("made.txt")], "granular", policy, work, env={})
    assert isinstance(inside, AutoApprove)
    outside = assess_patch_safety([Path("/etc/made.txt")], "granular", policy, work, env={})
    assert isinstance(outside, Reject)


def test_granular_in_a_rollout_is_0169s_object(tmp_path: Path) -> None:
    """0.169 writes `turn_context.approval_policy` as `{"granular": {...}}` (seen in its
    rollout of the no-trust case); ours writes the same and the state index reads both."""
    from codex_core.rollout.state_db import ThreadFacts
    from codex_core.turn_context import TurnContext

    policy = WorkspaceWritePolicy()
    context = TurnContext(tmp_path, "m", "granular", policy)
    assert context.rollout_payload()["approval_policy"] == GRANULAR_WIRE
    facts = ThreadFacts("id", "path", 0)
    facts.observe("turn_context", {"approval_policy": GRANULAR_WIRE})
    assert facts.approval_mode == json.dumps(GRANULAR_WIRE, separators=(",", ":"))  # as 0.169
