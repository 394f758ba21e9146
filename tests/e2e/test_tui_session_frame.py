"""`codex "prompt"` paints the new session on the first frame while Textual loads
(codex_tui/cli/session_frame.py): the real console script in a pty against the scripted
model server. Whatever the frame painted must be what Textual then paints, cell for cell
(text, colours, bold), so nothing jumps when it takes over; the rows Textual adds below
the answer (the turn's status, its "Worked for" line) are the only ones left out."""

from __future__ import annotations

import os
from pathlib import Path

import pexpect
import pytest

from tests.support.frame_screen import Cells, frame_then_settled
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e

ALT_SCREEN = b"\x1b[?1049h"
"""The frame's first sequence, and Textual's: the second one is where Textual begins."""
HOME = b"\x1b[1;1H"
"""Where Textual's first drawing of the screen begins (once it has set its modes); the
frame never writes it (its top row is blank)."""
PROMPT = "say hi"
SHORT = "Zebra42 answers"
LONG = " ".join(["Plain words (and a few more), then some: wrapped like Rich does it."] * 3)


def _run(
    codex_bin: Path, tmp_path: Path, server: ModelServer, size: tuple[int, int], answer: str
) -> tuple[Cells, Cells]:
    """(the frame's screen when Textual first draws, Textual's once the answer is shown and
    the screen has been quiet for 0.5 s)."""
    columns, lines = size
    server.add(turn(message(answer, chunks=[answer[:7], answer[7:]])))
    env = {**os.environ, "TERM": "xterm-256color", "OPENAI_API_KEY": "sk-test"}
    env.pop("COLORTERM", None)  # 256 colours, as the frame writes them
    project = tmp_path / "project"
    project.mkdir(parents=True)
    argv = ["-a", "never", "-s", "read-only", *server.cli_flags(), PROMPT]
    child = pexpect.spawn(
        str(codex_bin), argv, cwd=str(project), env=env, dimensions=(lines, columns)
    )
    last = answer.split()[-1].encode()

    def drawn(output: bytes) -> int:  # Textual's first drawing, once it has begun
        textual = output.find(ALT_SCREEN, len(ALT_SCREEN))
        return output.find(HOME, textual) if textual >= 0 else -1

    def answered(output: bytes, end: int) -> bool:
        return last in output

    _, frame, final = frame_then_settled(child, size, drawn, answered, "the answer")
    return frame, final


def _visible(cell: tuple[str, str, str, bool]) -> tuple[str, str, str, bool]:
    """What a cell looks like: a blank shows only its background. The frame clears the
    screen in its background colour, which terminals erase with (xterm's `bce`) and pyte
    does not: an untouched cell shows that colour."""
    if cell[0].strip():
        return cell
    return (" ", "", "121212" if cell[2] == "default" else cell[2], False)


def _text(cells: Cells) -> list[str]:
    return ["".join(cell[0] for cell in row).rstrip() for row in cells]


def _differences(frame: Cells, final: Cells) -> list[str]:
    """Cells that differ, but for the rows between the answer and the composer (Textual's
    status and "Worked for" lines) and the composer's blinking cursor."""
    text = _text(final)
    answer_end = max(
        y for y, row in enumerate(text) if row.startswith((" •", "   ")) and row.strip()
    )
    composer = len(final) - 4
    return [
        f"row {y + 1} col {x + 1}: frame {frame[y][x]!r}, textual {final[y][x]!r}"
        for y in range(len(final))
        for x in range(len(final[y]))
        if _visible(frame[y][x]) != _visible(final[y][x])
        and not answer_end < y < composer
        and (y, x) != (composer + 1, 2)
    ]


def _answered(frame: Cells, answer: str) -> bool:
    return answer.split()[-1] in "\n".join(_text(frame))


@pytest.mark.parametrize(
    ("size", "answer"),
    [((110, 36), SHORT), ((80, 30), LONG), ((64, 30), LONG)],
    ids=["110x36-short", "80x30-wrapped", "64x30-wrapped"],
)
def test_the_frame_paints_the_session_as_textual_then_does(
    codex_bin: Path, codex_home: Path, size: tuple[int, int], answer: str
) -> None:
    # The answer is on the frame unless Textual loads faster than the child answers (a
    # busy machine): then try again.
    for attempt in range(3):
        with ModelServer() as server:
            # under HOME (the codex_home fixture's), so the header shows a short `~/…`
            frame, final = _run(codex_bin, Path.home() / str(attempt), server, size, answer)
        if _answered(frame, answer):
            break
    else:
        pytest.fail(
            "Textual took over before the answer reached the frame, three times:\n"
            + "\n".join(_text(frame))
        )
    differences = _differences(frame, final)
    assert not differences, "\n".join(differences + _text(frame))
    shown = _text(frame)
    assert any(row.startswith(" › " + PROMPT) for row in shown), shown
    assert any(row.startswith(" │ >_ Codex (v") for row in shown), shown
