"""`codex acp` in Toad (the ACP client on Textual, PyPI `batrachian-toad`), in a pty against the
scripted model server: a prompt typed in Toad gets the model's answer on its screen.

Toad needs Python >= 3.14, so it lives outside the project's venv: the test uses `$TOAD_BIN`,
else `toad` on PATH, and skips saying why when neither is there. To run it:

    uv tool install batrachian-toad --python 3.14   # or: python3.14 -m venv V; V/bin/pip install batrachian-toad
    TOAD_BIN=$(command -v toad) .venv/bin/python -m pytest tests/servers/test_acp_toad.py -rs
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import pexpect
import pytest

from tests.e2e.test_tui_session import Terminal
from tests.servers.conftest import MODEL_FLAGS
from tests.servers.rpc_client import CODEX
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e

NOT_INSTALLED = (
    "Toad is not installed: batrachian-toad requires Python >= 3.14 (pip: 'from versions: none' "
    "on 3.11); set TOAD_BIN to a toad executable installed with Python 3.14 to run this test"
)


def toad_binary() -> str | None:
    """`$TOAD_BIN`, else `toad` on PATH."""
    return os.environ.get("TOAD_BIN") or shutil.which("toad")


def test_acp_in_toad_shows_the_answer(
    model_server: ModelServer, codex_home: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    toad = toad_binary()
    if toad is None:
        pytest.skip(NOT_INSTALLED)
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    model_server.add(turn(message("hello from codex in toad")))
    agent = shlex.join([str(CODEX), *model_server.cli_flags(), *MODEL_FLAGS, "acp"])
    env = {
        **os.environ,
        "CODEX_HOME": str(codex_home),
        "OPENAI_API_KEY": "sk-test",
        "TERM": "xterm-256color",
    }
    child = pexpect.spawn(
        toad, ["acp", agent], cwd=str(workspace), env=env, dimensions=(40, 120), encoding="utf-8"
    )
    terminal = Terminal(child)
    try:
        terminal.wait_for("codex", timeout=30)  # the agent's name, from `initialize`
        child.send("say hello")
        child.send("\r")
        terminal.wait_for("hello from codex in toad", timeout=60)
        assert model_server.requests, "Toad never sent the prompt"
        assert "say hello" in str(model_server.requests[-1].body["input"])
    finally:
        child.sendcontrol("q")
        child.terminate(force=True)
