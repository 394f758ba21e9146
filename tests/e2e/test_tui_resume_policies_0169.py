"""`codex resume ID` in the TUI (a pty) runs under the approval policy and sandbox of the
session's last turn when the command line chooses none, as codex-rust 0.169's TUI does
(tests/fixtures/tui_resume_policies_0169.json, recorded with `python -m` on this module):
danger-full-access comes back; workspace-write only in a trusted folder (read-only here)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_tui_session import spawn
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e

FIXTURE = Path(__file__).parents[1] / "fixtures" / "tui_resume_policies_0169.json"
CASES = ("danger-full-access", "workspace-write")


def _observe(binary: str, mode: str, work: Path) -> list[list[Any]]:
    """(approval, sandbox type) of each turn: `exec -s MODE`, then a turn in `resume ID`
    (CODEX_HOME from the environment)."""
    home = Path(os.environ["CODEX_HOME"])
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    with ModelServer([turn(message("first")), turn(message("resumed answer"))]) as server:
        flags = server.cli_flags()
        argv = [binary, "exec", "--json", "--skip-git-repo-check", "-s", mode, *flags, "hi"]
        done = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        session = json.loads(done.stdout.splitlines()[0])["thread_id"]
        term = spawn(Path(binary), ["resume", session, *flags], work)
        try:
            term.wait_for("Ask Codex to do anything", timeout=30)
            term.child.send("again")
            term.wait_for("again")
            term.child.send("\r")
            term.wait_for("resumed answer", timeout=30)
        finally:
            term.child.terminate(force=True)
    [rollout] = list(home.glob(f"sessions/**/rollout-*{session}.jsonl"))
    contexts = [
        record["payload"]
        for record in map(json.loads, rollout.read_text("utf-8").splitlines())
        if record["type"] == "turn_context"
    ]
    return [[c["approval_policy"], c["sandbox_policy"]["type"]] for c in contexts]


@pytest.mark.parametrize("mode", CASES)
def test_tui_resume_takes_the_sessions_policies_as_0169(
    codex_bin: Path, tmp_path: Path, mode: str
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    seen = json.loads(FIXTURE.read_text("utf-8"))
    assert _observe(str(codex_bin), mode, work) == seen[mode]


def record() -> None:  # pragma: no cover - by hand, with codex-rust on PATH
    found = shutil.which("codex-rust")
    assert found, "codex-rust is not installed"
    seen = {}
    for mode in CASES:
        base = Path(tempfile.mkdtemp(dir=Path.home() / ".cache"))
        (base / "home").mkdir()
        (base / "work").mkdir()
        os.environ["CODEX_HOME"] = str(base / "home")
        seen[mode] = _observe(found, mode, base / "work")
        shutil.rmtree(base)
    FIXTURE.write_text(json.dumps(seen, indent=1) + "\n")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(record())
