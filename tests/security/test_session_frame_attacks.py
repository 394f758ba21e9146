"""Attacks on the session frame (codex_tui/cli/session_frame.py, commit 85b19ec): what the
model, the child and the user can make the launch's first frame paint, and what the early
turn behind it (codex_tui/app/early_turn.py) lets through before the app is up.

The real console script in a pty against the scripted model server where a start-up race or
a screen of the app is involved; the painter itself (`SessionPainter` on a pyte screen) where
that is the precise way to say what it paints.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import termios
import time
from pathlib import Path
from typing import Any

import pexpect
import pyte
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codex_tui.cli.first_frame import FirstFrame
from codex_tui.cli.session_frame import SessionPainter
from tests.support.model_server import ModelServer, slow
from tests.support.painted_frame import (
    PaintedFrame,
    answer_started,
    delta,
    painter_on,
    thread_result,
)
from tests.support.sse import message, turn
from tests.support.trust import trust_project

PROMPT = "say hi"
PAINTED = re.compile(rb"\x1b\[\d+;2H\x1b\[0;38;5;253;48;5;233m")
"""How each painted answer line starts (Textual writes no `0;`-led colours; checked)."""
HEADER = b"\x1b[0;38;5;231;48;5;233m>_ "
"""The painted header's first words."""
TEXTUAL = b"\x1b[?1049h"
"""The frame's first sequence and Textual's: the second one is where Textual begins."""


def _opened(frame: PaintedFrame, **result: Any) -> SessionPainter:
    painter = painter_on(frame, PROMPT)
    assert painter.opened(thread_result(**result))
    assert painter.message(answer_started())
    return painter


def test_a_final_text_shorter_than_the_stream_leaves_no_streamed_line_behind() -> None:
    # The model streams one text and completes the item with another (its final
    # `output_item.done` is what the app shows): seen in a pty, the frame showed the short
    # text's line followed by the stream's second and third lines, a picture the app never
    # draws.
    frame = PaintedFrame(80, 30)
    painter = _opened(frame)
    streamed = " ".join(["Plain words (and a few more), then some: wrapped like Rich."] * 3)
    assert painter.message(delta(streamed))
    assert [row[:4] for row in frame.text()[17:21]] == [" • P", "   a", "   t", ""]
    item = {"id": "m1", "type": "agentMessage", "text": "Short words"}
    assert not painter.message({"method": "item/completed", "params": {"item": item}})
    shown = frame.text()
    assert shown[17] == " • Short words"
    assert shown[18:20] == ["", ""], shown  # the stream's other lines are gone
    assert all(cell.bg == "121212" for cell in frame.screen.buffer[18].values())  # (bg 233)


WORD = st.from_regex(r"[A-Za-z][a-z0-9,.()-]{0,11}", fullmatch=True)


@settings(max_examples=80, deadline=None)
@given(
    words=st.lists(WORD, min_size=1, max_size=40),
    cuts=st.lists(st.integers(0, 400), max_size=12),
    final=st.one_of(st.none(), st.lists(WORD, min_size=1, max_size=40)),
)
def test_a_streamed_answer_leaves_the_screen_as_painting_it_whole_does(
    words: list[str], cuts: list[int], final: list[str] | None
) -> None:
    # However the model cuts its answer into deltas, and whatever final text it ends with,
    # the frame ends up showing what one paint of that text shows: no line left behind.
    text = " ".join(words)
    bounds = sorted({0, len(text), *(cut for cut in cuts if cut < len(text))})
    streamed = PaintedFrame(60, 40)
    painter = _opened(streamed)
    for start, end in zip(bounds, bounds[1:], strict=False):
        if not painter.message(delta(text[start:end])):
            return  # too tall for the screen: painted no further (not compared)
    if final is not None:
        text = " ".join(final)
        item = {"id": "m1", "type": "agentMessage", "text": text}
        assert not painter.message({"method": "item/completed", "params": {"item": item}})
    whole = PaintedFrame(60, 40)
    if not _opened(whole).message(delta(text)):
        return
    assert streamed.text() == whole.text()


def test_the_footer_shows_the_reasoning_effort_as_the_app_does() -> None:
    # `-c model_reasoning_effort=high`: the app's footer says `gpt-5-codex high` (seen in a
    # pty), the frame said `gpt-5-codex`, and the footer jumped when Textual took over.
    frame = PaintedFrame(110, 36)
    _opened(frame, model="gpt-5-codex", reasoningEffort="high")
    assert frame.text()[-1].endswith("  gpt-5-codex high"), frame.text()[-1]
    frame = PaintedFrame(110, 36)
    _opened(frame, model="gpt-5-codex", reasoningEffort=None)
    assert frame.text()[-1].endswith("  gpt-5-codex"), frame.text()[-1]
    for effort in ("h\x1b[2Jigh", "высокий", 3):
        frame = PaintedFrame(110, 36)
        painter = SessionPainter(frame, "1.2.3", PROMPT, str)  # type: ignore[arg-type]
        result = {
            "thread": {"id": "t1", "turns": []},
            "model": "gpt-5-codex",
            "reasoningEffort": effort,
            "cwd": "/w",
            "approvalPolicy": "never",
            "sandbox": {"type": "readOnly"},
        }
        assert not painter.opened(result), effort  # not drawn as the app will: nothing
        assert not any(frame.text()), effort


def _drain(fd: int) -> bytes:
    out = b""
    while select.select([fd], [], [], 0.05)[0]:
        out += os.read(fd, 1 << 16)
    return out


def test_after_a_resize_the_frame_paints_nothing_more() -> None:
    # Resized while the answer streamed, the frame went on painting at the old size (seen
    # in a pty, 110x36 -> 70x24: an answer line of 106 columns at row 18, over the moved
    # composer): every row it paints is then somewhere else. The keys still reach the app.
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 36, 110, 0, 0))
    try:
        with open(slave, "w", encoding="utf-8", closefd=False) as stream:
            frame = FirstFrame.paint(stream)
            assert frame is not None
            try:
                assert frame.paint_rows("\x1b[18;2Hbefore")
                fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 70, 0, 0))
                painter = _opened(PaintedFrame())  # (a painter on its own frame: then on this one)
                painter.frame = frame  # type: ignore[assignment]
                assert not painter.message(delta("after"))
                assert not frame.paint_rows("\x1b[18;2Hlate")
            finally:
                frame.close()
        written = _drain(master)
        assert b"before" in written and b"after" not in written and b"late" not in written
    finally:
        os.close(master)
        os.close(slave)


def _screen_of(
    child: pexpect.spawn, screen: pyte.Screen, until: str, seconds: float, raw: bytearray
) -> None:
    """Feed the child's output to `screen` (and `raw`) until `until` shows (any for "")."""
    stream = pyte.ByteStream(screen)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            chunk = child.read_nonblocking(1 << 20, timeout=0.05)
        except pexpect.TIMEOUT:
            continue
        raw += chunk
        stream.feed(chunk)
        if until and until in "\n".join(screen.display):
            return
    if until:
        raise AssertionError(f"{until!r} never shown:\n" + "\n".join(screen.display))


@pytest.mark.e2e
def test_a_folder_recorded_untrusted_sends_nothing_before_the_user_opens_it(
    codex_bin: Path, tmp_path: Path
) -> None:
    # The launch prompt's early turn went to the model while the "Open restricted / Quit"
    # screen waited, and its tools ran (seen in a pty: a `cat secret.txt` ran and its output
    # reached the model before any key; codex-rust 0.169 sends nothing before the choice),
    # and the frame painted the session and the answer before that screen.
    project = tmp_path / "project"
    project.mkdir()
    (project / "secret.txt").write_text("TOPSECRET\n")
    trust_project(project, "untrusted")
    env = {**os.environ, "TERM": "xterm-256color", "OPENAI_API_KEY": "sk-test"}
    with ModelServer([turn(message("Zebra42 answers"))]) as server:
        child = pexpect.spawn(
            str(codex_bin), [*server.cli_flags(), PROMPT], cwd=str(project), env=env,
            dimensions=(36, 110),
        )  # fmt: skip
        screen, raw = pyte.Screen(110, 36), bytearray()
        try:
            _screen_of(child, screen, "Open restricted", 30, raw)
            assert HEADER not in raw  # no session painted before the question
            _screen_of(child, screen, "", 1.5, raw)  # the early turn had long asked by then
            assert server.requests == [], "the model was asked before the user chose"
            child.send(b"\r")  # 1. Open restricted
            _screen_of(child, screen, "Zebra42 answers", 30, raw)
        finally:
            child.terminate(force=True)
        sent = [item for item in server.requests[0].body["input"] if item.get("role") == "user"]
        assert PROMPT in str(sent[-1])  # the launch prompt still goes, once opened


@pytest.mark.e2e
def test_nothing_is_painted_once_textual_draws(codex_bin: Path, tmp_path: Path) -> None:
    # An answer streaming slowly across the app's start: the frame's paints may land among
    # Textual's own start-up sequences, never after its first drawing (`1;1H`), which would
    # leave the frame's picture over the app's until its next redraw.
    words = ("Plain words stream across the start of the app " * 6).split()
    chunks = [word + " " for word in words[:-1]] + [words[-1]]
    project = tmp_path / "project"
    project.mkdir()
    env = {**os.environ, "TERM": "xterm-256color", "OPENAI_API_KEY": "sk-test"}
    env.pop("COLORTERM", None)
    with ModelServer([slow(turn(message("".join(chunks), chunks=chunks)), 0.02)]) as server:
        argv = ["-a", "never", "-s", "read-only", *server.cli_flags(), PROMPT]
        child = pexpect.spawn(str(codex_bin), argv, cwd=str(project), env=env, dimensions=(36, 110))
        screen, raw = pyte.Screen(110, 36), bytearray()
        try:
            _screen_of(child, screen, "Worked for", 30, raw)
        finally:
            child.terminate(force=True)
    textual = raw.find(TEXTUAL, len(TEXTUAL))
    drawn = raw.find(b"\x1b[1;1H", textual)
    assert 0 < textual < drawn
    late = [m.start() for m in PAINTED.finditer(raw) if m.start() > drawn]
    assert not late, bytes(raw[late[0] - 200 : late[0] + 200])
