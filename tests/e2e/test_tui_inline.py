"""`codex --no-alt-screen` (and `tui.alternate_screen = "never"`) in a real pseudo-terminal:
the TUI never enters the alternate screen, so after it exits the conversation is still on
the terminal, as with the Codex CLI 0.169 (whose default run leaves only the exit lines)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e

ALT_SCREEN_ON = "\x1b[?1049h"


class Pty:
    """A child on a pty whose raw output is kept and fed to a terminal with scrollback."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.raw = ""
        rows, cols = child.getwinsize()
        self.screen = pyte.HistoryScreen(cols, rows, history=2000)
        self.stream = pyte.Stream(self.screen)

    def lines(self) -> list[str]:
        """Scrollback then the visible screen, as text."""
        width = self.screen.columns
        above = [
            "".join(line[x].data for x in range(width)).rstrip() for line in self.screen.history.top
        ]
        return above + [line.rstrip() for line in self.screen.display]

    def pump(self, until: str | None, timeout: float = 30) -> None:
        """Read output until `until` is on the terminal (None: until the child exits)."""
        deadline = time.monotonic() + timeout
        while until is None or not any(until in line for line in self.lines()):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                shown = "\n".join(self.lines()[-40:])
                raise AssertionError(f"{until!r} never appeared:\n{shown}")
            try:
                chunk = self.child.read_nonblocking(65536, timeout=min(0.5, remaining))
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                if until is None:
                    return
                raise AssertionError(f"codex exited before {until!r}") from None
            self.raw += chunk
            self.stream.feed(chunk)


def spawn(codex_bin: Path, args: list[str], cwd: Path) -> Pty:
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        str(codex_bin), args, cwd=str(cwd), env=env, dimensions=(30, 100), encoding="utf-8"
    )
    return Pty(child)


def converse_and_quit(term: Pty) -> None:
    term.pump("Ask Codex to do anything")
    term.child.send("say something inline\r")
    term.pump("inline answer from the model")
    term.child.send("\x03")
    term.pump("again to quit")
    term.child.send("\x03")
    term.pump(None)
    term.child.close()


@pytest.mark.parametrize("how", ["flag", "config"])
def test_tui_inline_leaves_the_conversation_on_the_terminal(
    how: str, codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    long_answer = "\n\n".join(f"paragraph {n} of the answer" for n in range(1, 41))
    model_server.add(turn(message(long_answer + "\n\ninline answer from the model")))
    flags = ["-a", "never", "-s", "read-only", *model_server.cli_flags()]
    if how == "flag":
        flags.append("--no-alt-screen")
    else:
        (codex_home / "config.toml").write_text('[tui]\nalternate_screen = "never"\n')

    term = spawn(codex_bin, flags, tmp_path)
    converse_and_quit(term)

    assert ALT_SCREEN_ON not in term.raw
    shown = term.lines()
    # the whole conversation, longer than the terminal, is in the scrollback, in order
    order = [
        "› say something inline",
        "• paragraph 1 of the answer",
        "paragraph 40 of the answer",
        "inline answer from the model",
        "To continue this session, run codex resume",
    ]
    found = [next(i for i, line in enumerate(shown) if text in line) for text in order]
    assert found == sorted(found), found
    assert term.child.exitstatus == 0


def test_tui_default_uses_the_alternate_screen(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(turn(message("inline answer from the model")))
    flags = ["-a", "never", "-s", "read-only", *model_server.cli_flags()]

    term = spawn(codex_bin, flags, tmp_path)
    converse_and_quit(term)

    assert ALT_SCREEN_ON in term.raw
