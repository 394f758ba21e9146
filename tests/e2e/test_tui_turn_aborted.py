"""Ctrl+C during a turn in the real TUI (a pty): the next request tells the model that its
turn was cut off, with the `<turn_aborted>` user message codex-rust 0.169 records (issue 26)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from codex_core.session.inputs import TURN_ABORTED_TEXT
from tests.e2e.test_tui_session import spawn
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn

pytestmark = pytest.mark.e2e


def test_tui_ctrl_c_mid_turn_then_next_prompt_tells_the_model(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    marker = project / "started"
    command = f"touch {marker}; sleep 30"
    model_server.add(
        turn(function_call("exec_command", {"cmd": command}, "c1")),
        turn(message("Starting over.")),
    )
    flags = ["-a", "never", "-s", "danger-full-access", *model_server.cli_flags()]
    term = spawn(codex_bin, flags, project)
    term.wait_for("Ask Codex to do anything")
    term.child.send("wait a while\r")
    deadline = time.monotonic() + 30
    while not marker.exists():
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    term.child.send("\x03")  # interrupts the turn (a second one would quit)
    # The composer's placeholder shows during the turn too: the notice says it has ended
    # (typed before that, the text would join the running turn instead).
    term.wait_for("Tell the model what to do differently.")
    term.forget()
    term.child.send("try again\r")
    term.wait_for("Starting over.")
    term.child.send("\x04")
    term.rest()
    texts = [
        part.get("text", "")
        for item in model_server.bodies[-1]["input"]
        if item.get("type") == "message" and item.get("role") == "user"
        for part in item["content"]
    ]
    assert texts[-2:] == [TURN_ABORTED_TEXT, "try again"]
