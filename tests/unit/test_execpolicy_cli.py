"""`codex execpolicy check`: JSON decision for a command from the user's rules."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from codex_tui.cli.execpolicy import main

RULE = 'prefix_rule(pattern=["git", "push"], decision="forbidden", justification="ask first")\n'


def home_rules(codex_home: Path, text: str) -> Path:
    """Write CODEX_HOME/rules/default.rules."""
    path = codex_home / "rules" / "default.rules"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_execpolicy_cli_check_reports_matched_rule(
    codex_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = home_rules(codex_home, RULE)
    assert main(["check", "git", "push", "origin"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "decision": "forbidden",
        "matched_rule": 'prefix_rule(pattern=["git", "push"], decision="forbidden")',
        "source": f"{path}:1",
        "justification": "ask first",
    }


def test_execpolicy_cli_check_without_match_prints_nulls(
    codex_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home_rules(codex_home, RULE)
    assert main(["check", "--", "ls", "-la"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "decision": None,
        "matched_rule": None,
        "source": None,
    }


def test_execpolicy_cli_rules_flag_replaces_codex_home_rules(
    codex_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home_rules(codex_home, RULE)
    first, second = tmp_path / "one.rules", tmp_path / "two.rules"
    first.write_text('prefix_rule(pattern=["git"], decision="allow")\n', encoding="utf-8")
    second.write_text('prefix_rule(pattern=["git", "push"], decision="prompt")\n', encoding="utf-8")
    assert main(["check", "--rules", str(first), f"--rules={second}", "--", "git", "push"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["decision"], result["source"]) == ("prompt", f"{second}:1")


def test_execpolicy_cli_warns_on_bad_rule_and_still_answers(
    codex_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = home_rules(codex_home, "prefix_rule(pattern=)\n" + RULE)
    assert main(["check", "git", "push"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["decision"] == "forbidden"
    assert captured.err.startswith(f"warning: {path}:1: expected a string or a list")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check"], "give the command to check"),
        (["check", "--rules"], "--rules needs a file path"),
        (["check", "--rules", "/nonexistent/x.rules", "ls"], "does not exist"),
        (["check", "--bogus", "ls"], "unknown option '--bogus'"),
        (["evaluate", "ls"], "unknown subcommand 'evaluate'"),
    ],
)
def test_execpolicy_cli_usage_errors_are_one_clear_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err.splitlines()[0]
    assert "Traceback" not in err


def test_execpolicy_cli_through_console_script(codex_home: Path, codex_bin: Path) -> None:
    home_rules(codex_home, RULE)
    done = subprocess.run(
        [str(codex_bin), "execpolicy", "check", "--pretty", "git", "push"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "forbidden"
