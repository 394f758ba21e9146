"""`codex 2>FILE` in a pty: the screen still draws on the terminal (Textual draws on stderr
unless told otherwise), the answer shows there, and the file gets no screen."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tests.e2e.test_tui_first_frame import (
    ANSI,
    TEXTUAL_STARTED,
    _kill_group,
    quit_codex,
    read_until,
    spawn,
)
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e


def test_tui_with_stderr_redirected_draws_on_the_terminal(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(turn(message("Walrus answers here")))
    log = tmp_path / "stderr.log"
    flags = ["-a", "on-request", "-s", "read-only", *model_server.cli_flags(), "say hi"]
    script = f"exec {shlex.join([str(codex_bin), *flags])} 2>{shlex.quote(str(log))}"
    child = spawn(["/bin/sh", "-c", script], tmp_path)
    try:
        # The session frame may show the answer first; the app then draws the turn's end.
        raw = read_until(child, "Worked for")
        assert TEXTUAL_STARTED in raw, "the app never drew on the terminal"
        drawn = raw[raw.index(TEXTUAL_STARTED) :]
        assert "Walrus answers here" in ANSI.sub("", drawn), "the app did not draw the answer"
        quit_codex(child)
    finally:
        _kill_group(child)
    assert TEXTUAL_STARTED not in log.read_text(errors="replace")
