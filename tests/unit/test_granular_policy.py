"""`granular` with its settings, as Codex 0.169 takes it (tests/fixtures/app_server_granular_0169.json):
config.toml's `approval_policy = { granular = { ... } }` (and `-c`), one-line errors for the
forms 0.169 refuses, and each setting deciding whether its kind of request is asked about or
rejected without asking."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from mcp import types

from codex_core.config import ConfigError, ConfigOverrides, load_config
from codex_core.mcp.elicitation import PendingElicitations
from codex_core.policies import DEFAULT_GRANULAR, GranularApproval, approval_wire
from codex_core.protocol.common import WorkspaceWritePolicy
from codex_core.safety import AskUser, Reject, assess_command_safety, assess_patch_safety
from codex_core.turn_context import TurnContext

TABLE = "approval_policy = { granular = { sandbox_approval = true, rules = false, mcp_elicitations = true } }\n"
ON = GranularApproval(sandbox_approval=True, rules=True, mcp_elicitations=True)
OFF = GranularApproval(sandbox_approval=False, rules=False, mcp_elicitations=False)


def _load(home: Path, text: str, cli: list[str] | None = None):  # type: ignore[no-untyped-def]
    (home / "config.toml").write_text(text)
    return load_config(ConfigOverrides(cwd=home), cli or [], codex_home=home, environ={})


def test_config_toml_granular_table(tmp_path: Path) -> None:
    config = _load(tmp_path, TABLE + 'model = "o3"\n')
    assert config.approval_policy == "granular"
    assert config.granular == GranularApproval(
        sandbox_approval=True, rules=False, mcp_elicitations=True
    )
    assert approval_wire(config.approval_policy, config.granular) == {
        "granular": {
            "sandbox_approval": True,
            "rules": False,
            "skill_approval": False,
            "request_permissions": False,
            "mcp_elicitations": True,
        }
    }


def test_cli_override_granular_ignores_unknown_keys_as_0169(tmp_path: Path) -> None:
    cli = [
        "approval_policy={granular={sandbox_approval=false,rules=true,mcp_elicitations=false,foo=1}}"
    ]
    config = _load(tmp_path, "", cli)
    assert (config.approval_policy, config.granular) == (
        "granular",
        GranularApproval(sandbox_approval=False, rules=True, mcp_elicitations=False),
    )


def test_a_name_overrides_the_table_and_drops_its_settings(tmp_path: Path) -> None:
    config = _load(tmp_path, TABLE, ["approval_policy=never"])
    assert (config.approval_policy, config.granular) == ("never", None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "approval_policy = { granular = { sandbox_approval = true } }\n",
            "approval_policy.granular.rules is required; add it to [approval_policy.granular]",
        ),
        (
            'approval_policy = { granular = { sandbox_approval = "yes", rules = false, '
            "mcp_elicitations = true } }\n",
            'approval_policy.granular.sandbox_approval = "yes" is not a boolean',
        ),
        (
            'approval_policy = "granular"\n',
            'approval_policy = "granular" is not one of untrusted, on-failure, on-request, never',
        ),
        (
            "approval_policy = { other = {} }\n",
            "approval_policy.granular is required; add it to [approval_policy]",
        ),
    ],
)
def test_forms_0169_refuses_are_one_line_errors(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, text)
    assert str(caught.value) == f"{tmp_path / 'config.toml'}:1: {expected}"


@pytest.mark.parametrize(("settings", "asked"), [(ON, True), (OFF, False), (None, False)])
def test_settings_decide_escalation_rules_and_patches(
    tmp_path: Path, settings: GranularApproval | None, asked: bool
) -> None:
    policy = WorkspaceWritePolicy(exclude_slash_tmp=True, exclude_tmpdir_env_var=True)
    expected = AskUser if asked else Reject
    escalated = assess_command_safety(
        ["touch", "/elsewhere"],
        "granular",
        policy,
        frozenset(),
        with_escalated_permissions=True,
        granular=settings,
    )
    assert isinstance(escalated, expected)
    ruled = assess_command_safety(
        ["make"], "granular", policy, frozenset(), rule_decision="prompt", granular=settings
    )
    assert isinstance(ruled, expected)
    patch = assess_patch_safety(
        [Path("/elsewhere/x")], "granular", policy, tmp_path, env={}, granular=settings
    )
    assert isinstance(patch, expected)
    if not asked:
        assert "granular" in escalated.reason  # type: ignore[union-attr]


def test_rules_and_sandbox_settings_are_separate() -> None:
    policy = WorkspaceWritePolicy()
    only_rules = GranularApproval(sandbox_approval=False, rules=True, mcp_elicitations=True)
    ruled = assess_command_safety(
        ["make"], "granular", policy, frozenset(), rule_decision="prompt", granular=only_rules
    )
    escalated = assess_command_safety(
        ["make"],
        "granular",
        policy,
        frozenset(),
        with_escalated_permissions=True,
        granular=only_rules,
    )
    assert isinstance(ruled, AskUser)
    assert isinstance(escalated, Reject)
    assert "`sandbox_approval = false`" in escalated.reason


def test_turn_context_records_the_settings_and_a_new_policy_drops_them(tmp_path: Path) -> None:
    turn = TurnContext(
        cwd=tmp_path, model="m", approval_policy="granular", sandbox_policy=policy(), granular=OFF
    )
    assert turn.rollout_payload()["approval_policy"] == {"granular": OFF.model_dump()}
    assert turn.with_changes(model="n").granular == OFF
    changed = turn.with_changes(approval_policy="on-request")
    assert (changed.approval_policy, changed.granular) == ("on-request", None)
    default = turn.with_changes(approval_policy="granular")
    assert default.rollout_payload()["approval_policy"] == {
        "granular": DEFAULT_GRANULAR.model_dump()
    }


def policy() -> WorkspaceWritePolicy:
    return WorkspaceWritePolicy()


def test_elicitations_declined_unasked_when_the_session_says_so() -> None:
    emitted: list[object] = []
    pending = PendingElicitations(emitted.append)
    pending.declined = lambda: True
    params = types.ElicitRequestFormParams(message="name?", requestedSchema={"type": "object"})
    result = asyncio.run(pending.ask("srv", params))
    assert result.action == "decline"
    assert emitted == []


def test_state_db_row_says_what_0169_writes() -> None:
    import json

    from codex_core.policies import sandbox_policy_from_mode
    from codex_core.rollout.permissions import permission_profile
    from codex_core.rollout.state_db import ThreadFacts

    fixture = Path(__file__).parent.parent / "fixtures" / "app_server_granular_0169.json"
    seen = json.loads(fixture.read_text())["state_db"]
    workspace = sandbox_policy_from_mode("workspace-write")
    column = json.dumps(permission_profile(workspace, "/w/p"), separators=(",", ":"))
    assert column == seen["sandbox_policy"].replace("CWD", "/w/p")
    facts = ThreadFacts("id", "path", 0)
    settings = GranularApproval(sandbox_approval=False, rules=True, mcp_elicitations=True)
    facts.observe("turn_context", {"approval_policy": approval_wire("granular", settings)})
    assert facts.approval_mode == seen["approval_mode"]


def test_environment_context_says_what_chosen_settings_ask(tmp_path: Path) -> None:
    from codex_core.instructions import EnvironmentContext

    chosen = GranularApproval(sandbox_approval=True, rules=False, mcp_elicitations=True)
    text = EnvironmentContext(tmp_path, "granular", policy(), "bash", chosen).render()
    assert "  <granular_asks>sandbox_approval, mcp_elicitations</granular_asks>\n" in text
    assert "<granular_refuses>rules, skill_approval, request_permissions</granular_refuses>" in text
    default = EnvironmentContext(tmp_path, "granular", policy(), "bash").render()
    assert "granular_asks" not in default  # the TUI's default: as before
