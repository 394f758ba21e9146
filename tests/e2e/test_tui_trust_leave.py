"""The trust question offers trust or leave, as codex-rust 0.169's does (its second choice goes
back to its agent command center; tests/fixtures/tui_policies_0169.json, case `trusted`):
leaving — `2`, `n` or Esc — ends the TUI without a session, a model request or a trust
record, so the question comes again next time."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.test_tui_session import spawn
from tests.support.model_server import ModelServer

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("key", ["2", "\x1b"])
def test_leaving_the_trust_question_records_nothing(
    codex_bin: Path, codex_home: Path, tmp_path: Path, key: str
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, timeout=30)
    (codex_home / "config.toml").write_text("# mine\n")
    with ModelServer() as server:
        term = spawn(codex_bin, server.cli_flags(), repo)
        term.wait_for("You are running Codex in")
        term.wait_for("quit without trusting")
        term.child.send(key)
        term.rest(timeout=20)
        term.child.close()
        assert server.bodies == []
    assert term.child.exitstatus == 0
    assert (codex_home / "config.toml").read_text() == "# mine\n"
    assert not list(codex_home.glob("sessions/**/*.jsonl"))
