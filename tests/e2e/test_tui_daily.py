"""The real TUI in a pty for what a daily Codex user trips over (issue 27)."""

from __future__ import annotations

import os
from pathlib import Path

import pexpect
import pytest

from tests.e2e.test_codex_exec import provider_flags, run_codex
from tests.e2e.test_tui_session import Terminal, spawn
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e


def screen_text(term: object) -> str:
    return "\n".join(line.rstrip() for line in term.display.display)  # type: ignore[attr-defined]


def test_tui_resume_last_opens_at_the_end_of_the_last_answer(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    answer = "\n\n".join(f"Paragraph {i}: " + "words " * 12 for i in range(40))
    model_server.add(turn(message(answer + "\n\nTHE END OF THE ANSWER")))
    flags = ["--skip-git-repo-check", *provider_flags(model_server, "responses")]
    first = run_codex(codex_bin, ["exec", *flags, "tell me"], tmp_path)
    assert first.returncode == 0, first.stderr

    flags = ["-a", "never", "-s", "workspace-write", *model_server.cli_flags()]
    term = spawn(codex_bin, ["resume", "--last", *flags], tmp_path)
    term.wait_for("THE END OF THE ANSWER")
    term.wait_for("Ask Codex to do anything")
    assert "THE END OF THE ANSWER" in screen_text(term)
    term.child.send("\x1b[5~")  # PageUp
    term.wait_for("Paragraph 2")
    term.child.send("\x04")
    term.rest()


def test_tui_no_color_marks_the_selected_row(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    """With NO_COLOR=1 the highlighted row of a list still reads: it starts with `›`."""
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "TERM": "xterm-256color", "NO_COLOR": "1"}
    flags = ["-a", "never", "-s", "workspace-write", *model_server.cli_flags()]
    child = pexpect.spawn(
        str(codex_bin), flags, cwd=str(tmp_path), env=env, dimensions=(20, 60), encoding="utf-8"
    )
    term = Terminal(child)
    term.wait_for("Ask Codex to do anything")
    term.child.send("/")
    term.wait_for("› /model")
    term.child.send("\x1b[B")  # Down
    term.wait_for("› /permissions")
    rows = screen_text(term).splitlines()
    assert [row for row in rows if row.lstrip().startswith("›")] == [
        next(row for row in rows if "/permissions" in row)
    ]
    term.forget()
    term.child.send("\x7f")  # Backspace: the popup closes with the empty composer
    # Ctrl+D is the screen's key and quits only an empty composer: wait until the composer
    # took the backspace (its placeholder is back) — sent at once, it may come first.
    term.wait_for("Ask Codex to do anything")
    term.child.send("\x04")
    term.rest()
