"""`codex resume` paints the picker's first page before Textual loads (codex_tui/cli/
picker_frame.py): the real console script in a pty; the frame's screen must be the one
Textual then paints, cell for cell (text, colours, bold), so nothing jumps when it takes over."""

from __future__ import annotations

import os
from pathlib import Path

import pexpect
import pytest

from codex_tui.cli.picker_frame import Page, render
from tests.bench.resume_picker import row_text, write_sessions
from tests.support.frame_screen import Cells, frame_then_settled

pytestmark = pytest.mark.e2e

FRAME_START = b"\x1b[?1049h\x1b[?25l\x1b[0;48;5;233m\x1b[2J"
FRAME_END = b"\x1b[0m"  # the frame's only full reset is its last sequence
FLAGS = ["-a", "never", "-s", "read-only"]
BLINKING = (3, 4)
"""(row, column) from 0 of the search box's cursor: Textual blinks it."""


def _run_picker(
    codex_bin: Path, project: Path, size: tuple[int, int], extra: list[str] | None = None
) -> tuple[bytes, Cells, Cells]:
    """Spawn `codex resume`; returns (everything written, the frame's screen, the screen
    once Textual's picker has been quiet for 0.5 s)."""
    columns, lines = size
    env = {**os.environ, "TERM": "xterm-256color", "OPENAI_API_KEY": "sk-test"}
    env.pop("COLORTERM", None)  # 256 colours, as the frame writes them
    child = pexpect.spawn(
        str(codex_bin),
        ["resume", *FLAGS, *(extra or [])],
        cwd=str(project),
        env=env,
        dimensions=(lines, columns),
    )
    newest = row_text(0).encode()

    def frame_end(output: bytes) -> int:
        if output.startswith(FRAME_START) and FRAME_END in output:
            return output.index(FRAME_END) + len(FRAME_END)
        return -1

    def listed(output: bytes, end: int) -> bool:  # Textual has drawn the list
        return newest in output[end:]

    return frame_then_settled(child, size, frame_end, listed, "the picker")


def _spawn_on_sessions(
    codex_bin: Path, codex_home: Path, tmp_path: Path, sessions: int, args: list[str]
) -> pexpect.spawn:
    """`codex <args>` in a 110x36 pty, in a project with `sessions` sessions an hour apart."""
    project = tmp_path / "project"
    project.mkdir()
    write_sessions(codex_home, project.resolve(), sessions, step=3600)
    env = {**os.environ, "TERM": "xterm-256color", "OPENAI_API_KEY": "sk-test"}
    return pexpect.spawn(str(codex_bin), args, cwd=str(project), env=env, dimensions=(36, 110))


def _visible(cell: tuple[str, str, str, bool]) -> tuple[str, str, str, bool]:
    """What a cell looks like: a blank shows only its background."""
    return cell if cell[0].strip() else (" ", "", cell[2], False)


def _differences(frame: Cells, final: Cells) -> list[str]:
    """Cells that differ, but for the table's scrollbar (Textual adds it when the first
    page is taller than the table; the frame leaves it out)."""
    scrollbar = {len(final[0]) - 3, len(final[0]) - 2}
    return [
        f"row {y + 1} col {x + 1}: frame {frame[y][x]!r}, textual {final[y][x]!r}"
        for y in range(len(final))
        for x in range(len(final[y]))
        if _visible(frame[y][x]) != _visible(final[y][x])
        and (y, x) != BLINKING
        and not (5 <= y < len(final) - 2 and x in scrollbar)
    ]


@pytest.mark.parametrize("size", [(110, 36), (110, 20), (96, 30)])
def test_resume_paints_the_first_page_as_textual_then_does(
    codex_bin: Path, codex_home: Path, tmp_path: Path, size: tuple[int, int]
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    write_sessions(codex_home, project.resolve(), 30, step=3600)
    raw, frame, final = _run_picker(codex_bin, project, size)
    assert raw.startswith(FRAME_START)
    text = ["".join(cell[0] for cell in row) for row in frame]
    assert any(row_text(0) in row for row in text), "\n".join(text)
    differences = _differences(frame, final)
    assert not differences, "\n".join(differences)


def test_resume_frame_says_fork_for_codex_fork(
    codex_bin: Path, codex_home: Path, tmp_path: Path
) -> None:
    child = _spawn_on_sessions(codex_bin, codex_home, tmp_path, 3, ["fork", *FLAGS])
    try:
        child.expect_exact(FRAME_END, timeout=30)
        painted = (child.before or b"").decode()
    finally:
        child.terminate(force=True)
    assert "Fork a previous session" in painted
    assert "\x1b[0;38;5;247;48;5;233m fork" in painted


def test_frame_shows_only_printable_characters_of_hostile_sessions() -> None:
    hostile = "\x1b]0;owned\x07\x1b[2Jrm -rf \u202eevil\u202c\r\nnext"
    page = Page([("1 hour ago", "\x1b[31mbranch", "~/\x07dir", hostile)], more=False)
    painted = render(110, 36, page, show_all=False, fork=False)
    body = painted.replace("\x1b[", "")  # every escape the frame itself writes is a CSI
    assert "\x1b" not in body and "\x07" not in body and "\r" not in body
    assert "\u202e" not in painted and "\n" not in painted
    assert "owned" in painted and "evil" in painted


def test_a_config_error_after_the_frame_leaves_one_line_on_the_normal_screen(
    codex_bin: Path, codex_home: Path, tmp_path: Path
) -> None:
    args = ["resume", *FLAGS, "-c", "model_reasoning_effort=42"]
    child = _spawn_on_sessions(codex_bin, codex_home, tmp_path, 2, args)
    child.expect(pexpect.EOF, timeout=30)
    child.close()
    out = (child.before or b"").decode(errors="replace")
    assert out.startswith(FRAME_START.decode())  # the list went up first
    after = out.split("\x1b[?1049l", 1)[1]  # then the alternate screen was left
    assert child.exitstatus == 1
    assert "codex:" in after and "Traceback" not in out


def test_ctrl_c_on_the_frame_quits_and_gives_the_terminal_back(
    codex_bin: Path, codex_home: Path, tmp_path: Path
) -> None:
    child = _spawn_on_sessions(codex_bin, codex_home, tmp_path, 2, ["resume", *FLAGS])
    child.expect_exact(FRAME_END, timeout=30)  # the frame is up; Textual is still loading
    child.send(b"\x03")
    child.expect(pexpect.EOF, timeout=30)
    rest = (child.before or b"").decode(errors="replace")
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in rest
    assert "\x1b[?1049l" in rest  # the alternate screen was left
