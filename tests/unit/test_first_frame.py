"""The TUI's first frame: what it draws, the terminal mode it holds and gives back."""

from __future__ import annotations

import fcntl
import io
import os
import struct
import subprocess
import sys
import termios

import pyte

from codex_tui.cli.first_frame import FOOTER, PLACEHOLDER, FirstFrame, render


def test_first_frame_draws_composer_and_footer_at_the_bottom() -> None:
    screen = pyte.Screen(60, 10)
    pyte.Stream(screen).feed(render(60, 10))
    assert [line.rstrip() for line in screen.display[-4:]] == [
        "╭" + "─" * 58 + "╮",
        "│ " + PLACEHOLDER + " " * (57 - len(PLACEHOLDER)) + "│",
        "╰" + "─" * 58 + "╯",
        (" " + FOOTER).rstrip(),
    ]
    assert all(not line.strip() for line in screen.display[:-4])
    assert screen.buffer[7][2].reverse  # the cursor sits on the placeholder's first letter


def test_first_frame_uses_the_alternate_screen_and_fits_tiny_terminals() -> None:
    frame = render(5, 2)
    assert frame.startswith("\x1b[?1049h")
    screen = pyte.Screen(20, 6)
    pyte.Stream(screen).feed(frame)
    assert all(len(line) == 20 for line in screen.display)


def test_first_frame_holds_keys_unechoed_then_restores_the_terminal() -> None:
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    try:
        with open(slave, "w", encoding="utf-8", closefd=False) as stream:
            before = termios.tcgetattr(slave)
            frame = FirstFrame.paint(stream)
            assert frame is not None
            held = termios.tcgetattr(slave)
            assert not held[3] & (termios.ECHO | termios.ICANON)
            assert not held[0] & termios.ICRNL  # Enter stays \r for the composer
            os.write(master, b"hi\r")
            assert os.read(slave, 16) == b"hi\r"  # waiting, untranslated, not lost
            frame.close()
            frame.close()  # twice is harmless
            assert termios.tcgetattr(slave) == before
        assert PLACEHOLDER[1:].encode() in os.read(master, 65536)
    finally:
        os.close(master)
        os.close(slave)


def test_first_frame_is_not_painted_off_a_terminal() -> None:
    assert FirstFrame.paint(io.StringIO()) is None


def test_first_frame_paints_before_pydantic_textual_or_httpx_load() -> None:
    code = (
        "import sys, codex_tui.cli.main, codex_tui.cli.overrides, codex_tui.cli.tui;"
        "print(sorted(m for m in ('pydantic', 'textual', 'httpx', 'rich') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
