"""The TUI (an app-server client) runs config.toml's `approval_policy = { granular = {...} }`
with its settings: `sandbox_approval = true` asks about leaving the sandbox, `false` refuses it
without asking (0.169's behaviour for the same config, tests/fixtures/app_server_granular_0169.json)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.test_tui_policies_0169 import _escalation, _prompt
from tests.e2e.test_tui_session import spawn
from tests.support import sse
from tests.support.model_server import ModelServer

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("sandbox_approval", [True, False])
def test_tui_granular_settings_from_config(
    codex_bin: Path, tmp_path: Path, sandbox_approval: bool
) -> None:
    home = Path(os.environ["CODEX_HOME"])
    flag = "true" if sandbox_approval else "false"
    (home / "config.toml").write_text(
        f"approval_policy = {{ granular = {{ sandbox_approval = {flag}, rules = false, "
        "mcp_elicitations = true } }\n"
    )
    work, outside = tmp_path / "work", tmp_path / "outside.txt"
    work.mkdir()
    steps = [sse.turn(_escalation(outside)), sse.turn(sse.message("escalation done"))]
    with ModelServer(steps) as server:
        term = spawn(codex_bin, [*server.cli_flags(), "-c", 'model="gpt-5.5"'], work)
        try:
            term.wait_for("Ask Codex to do anything")
            if sandbox_approval:
                _prompt(term, "escalate now", "Allow Codex to run")  # asked
                term.child.send("n")
                term.wait_for("You cancelled running", timeout=30)
            else:
                _prompt(term, "escalate now", "escalation done")
                assert "Allow Codex to run" not in term.screen
                output = server.requests[-1].body["input"][-1]
                assert "`sandbox_approval = false`" in output["output"], output
        finally:
            term.child.terminate(force=True)
    assert not outside.exists()
