"""Unit tests for `codex sandbox` argument parsing and policy building."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_tui.cli.sandbox import CommandError, build_policy, main, parse_command_line
from sandbox_helper.policy import HelperPolicy


def test_sandbox_cmd_parses_flags_and_command_after_double_dash() -> None:
    parsed = parse_command_line(
        ["linux", "--full-auto", "-c", "a=1", "--config=b=2", "--", "ls", "-l"]
    )
    assert parsed == ("linux", True, ["a=1", "b=2"], ["ls", "-l"])


def test_sandbox_cmd_command_may_follow_options_without_double_dash() -> None:
    assert parse_command_line(["seatbelt", "echo", "--full-auto"]) == (
        "macos",
        False,
        [],
        ["echo", "--full-auto"],
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "expected a command"),
        (["--bogus", "--", "x"], "unknown option"),
        (["linux"], "no command"),
        (["linux", "--bogus", "--", "x"], "unknown option"),
        (["linux", "-c"], "needs a key=value"),
    ],
)
def test_sandbox_cmd_rejects_bad_command_lines(argv: list[str], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        parse_command_line(argv)


def test_sandbox_cmd_codex_cli_form_takes_policy_from_config_and_overrides(
    codex_home: Path,
) -> None:
    assert parse_command_line(["-c", "sandbox_mode=workspace-write", "--", "ls"]) == (
        "",
        False,
        ["sandbox_mode=workspace-write"],
        ["ls"],
    )
    assert build_policy(False, [], from_config=True) == HelperPolicy("read-only")
    (codex_home / "config.toml").write_text(
        'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nnetwork_access = true\n'
    )
    assert build_policy(False, [], from_config=True) == HelperPolicy("workspace-write", (), True)
    assert build_policy(False, ["sandbox_mode=read-only"], from_config=True) == HelperPolicy(
        "read-only"
    )
    with pytest.raises(CommandError, match="sandbox_mode must be one of"):
        build_policy(False, ["sandbox_mode=open"], from_config=True)


def test_sandbox_cmd_policy_is_read_only_without_full_auto(codex_home: Path) -> None:
    (codex_home / "config.toml").write_text("[sandbox_workspace_write]\nnetwork_access = true\n")
    assert build_policy(False, []) == HelperPolicy("read-only")


def test_sandbox_cmd_full_auto_reads_config_table_and_cli_overrides_win(codex_home: Path) -> None:
    (codex_home / "config.toml").write_text(
        'model = "x"\n[sandbox_workspace_write]\nwritable_roots = ["/data"]\nnetwork_access = true\n'
    )
    policy = build_policy(
        True,
        [
            "sandbox_workspace_write.network_access=false",
            "sandbox_workspace_write.exclude_slash_tmp=true",
            "model=y",
        ],
    )
    assert policy == HelperPolicy("workspace-write", ("/data",), False, False, True)


def test_sandbox_cmd_bad_override_type_is_one_clear_error(codex_home: Path) -> None:
    with pytest.raises(CommandError, match="network_access must be true or false"):
        build_policy(True, ["sandbox_workspace_write.network_access=maybe"])


def test_sandbox_cmd_invalid_config_file_names_the_file(codex_home: Path) -> None:
    (codex_home / "config.toml").write_text("[sandbox_workspace_write\n")
    with pytest.raises(CommandError, match="config.toml is not valid TOML"):
        build_policy(True, [])


def test_sandbox_cmd_main_reports_usage_errors_with_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["linux"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("codex sandbox: no command given") and err.count("\n") == 1
