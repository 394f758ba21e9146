"""The TUI's first frame: what it draws, the terminal mode it holds and gives back."""

from __future__ import annotations

import fcntl
import io
import os
import select
import struct
import subprocess
import sys
import termios
import time

import pyte

from codex_tui.cli.first_frame import FOOTER, PLACEHOLDER, FirstFrame, KeyEcho, Typed, render


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
    cursor = screen.buffer[7][2]  # on the placeholder's first letter, as Textual draws it
    assert (cursor.data, cursor.fg, cursor.bg) == ("A", "121212", "dadada")
    assert screen.buffer[9][1].bold and not screen.buffer[9][2].bold  # the key, its label


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


def test_the_app_server_child_is_spawned_before_asyncio_or_logging_load() -> None:
    # What the TUI imports to spawn its child right after the frame: the child starts
    # loading the core that much sooner.
    code = (
        "import sys, codex_tui.cli.main, codex_tui.cli.tui;"
        "import codex_core.servers.app_server.local, codex_tui.app.app_server_process;"
        "print(sorted(m for m in ('asyncio', 'logging', 'pydantic') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def echoed(*chunks: bytes) -> KeyEcho:
    echo = KeyEcho()
    for chunk in chunks:
        echo.feed(chunk)
    return echo


def test_key_echo_keeps_text_and_edits_it_like_the_composer() -> None:
    assert echoed(b"hello", b" world").text == "hello world"
    assert echoed(b"helo", b"\x7f", b"lo").text == "hello"  # backspace
    assert echoed(b"ab\x08\x08\x08c").text == "c"  # ctrl+h, and past the start
    assert echoed(b"one two  ", b"\x17").text == "one "  # ctrl+w: the word before
    assert echoed(b"first\nsecond", b"\x15").text == "first\n"  # ctrl+j, ctrl+u
    assert echoed("é".encode()[:1], "é".encode()[1:], "漢字".encode()).text == "é漢字"


def test_key_echo_drops_escape_sequences_and_control_keys() -> None:
    # arrows (CSI and SS3), F5, alt+x, a lone Esc, tab, ctrl+a: none is text
    echo = echoed(b"a\x1b[D", b"\x1bOA", b"b\x1b[15~", b"\x1bx", b"\x1b", b"c\t\x01d")
    assert echo.text == "abcd"
    assert echoed(b"x\x1b[", b"1;5", b"Cy").text == "xy"  # a sequence split across reads


def test_key_echo_ctrl_d_on_an_empty_composer_asks_to_leave() -> None:
    echo = echoed(b"\x04")
    assert echo.quit and echo.done and not echo.submitted
    kept = echoed(b"draft\x04")  # with text it is not a quit (the app deletes forward)
    assert not kept.quit and kept.text == "draft"


def test_key_echo_enter_submits_only_at_the_end_of_a_read() -> None:
    assert not echoed(b"hi").submitted
    echo = echoed(b"hi", b"\r")
    assert (echo.text, echo.submitted) == ("hi", True)
    pasted = echoed(b"line one\rline two")  # a pasted line break, not Enter
    assert (pasted.text, pasted.submitted) == ("line one\nline two", False)
    assert not echoed(b"  ", b"\r").submitted  # Enter on a blank composer does nothing


def test_first_frame_row_shows_the_end_of_long_or_wide_text() -> None:
    from codex_tui.cli.first_frame import _composer_row

    for text in ("x" * 100 + "END", "漢" * 40 + "末", "a\u0301" * 30 + "Z"):
        screen = pyte.Screen(30, 1)
        pyte.Stream(screen).feed(_composer_row(30, text))
        row = screen.display[0]
        assert row.startswith("│ ") and row.endswith("│"), row
        assert row[:-1].rstrip()[-1] in "DZ末", row
        cursor = [x for x in range(30) if screen.buffer[0][x].bg == "dadada"]
        before = "".join(screen.buffer[0][x].data for x in range(cursor[0] if cursor else 0))
        assert len(cursor) == 1 and before.endswith(("END", "Z", "末")), row  # cursor after


def pty_pair() -> tuple[int, int]:
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 10, 40, 0, 0))
    return master, slave


def wait_for_screen(master: int, screen: pyte.Screen, text: str) -> None:
    stream, deadline = pyte.ByteStream(screen), time.monotonic() + 5
    while not any(text in line for line in screen.display):
        assert time.monotonic() < deadline, "\n".join(screen.display)
        if select.select([master], [], [], 0.1)[0]:
            stream.feed(os.read(master, 65536))


def test_first_frame_echoes_typed_text_and_hands_it_over() -> None:
    master, slave = pty_pair()
    try:
        with (
            open(slave, "w", encoding="utf-8", closefd=False) as stream,
            open(slave, encoding="utf-8", closefd=False) as keys,
        ):
            before = termios.tcgetattr(slave)
            frame = FirstFrame.paint(stream, keys)
            assert frame is not None
            screen = pyte.Screen(40, 10)
            os.write(master, "typed early ✓".encode())
            wait_for_screen(master, screen, "│ typed early ✓")
            os.write(master, b"\x7f!")
            wait_for_screen(master, screen, "│ typed early !")
            assert frame.take_input() == Typed("typed early !", False)
            os.write(master, b"later\r")  # no longer read: waits for Textual, in order
            time.sleep(0.05)
            assert os.read(slave, 16) == b"later\r"
            frame.close()
            assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        os.close(slave)


def test_first_frame_stops_reading_at_enter_and_leaves_the_rest_queued() -> None:
    master, slave = pty_pair()
    try:
        with (
            open(slave, "w", encoding="utf-8", closefd=False) as stream,
            open(slave, encoding="utf-8", closefd=False) as keys,
        ):
            frame = FirstFrame.paint(stream, keys)
            assert frame is not None
            os.write(master, b"send me\r")
            deadline = time.monotonic() + 5
            while not frame.echo.submitted:
                assert time.monotonic() < deadline
                time.sleep(0.01)
            os.write(master, b"next")
            time.sleep(0.05)
            assert frame.take_input() == Typed("send me", True)
            assert os.read(slave, 16) == b"next"
            frame.close()
    finally:
        os.close(master)
        os.close(slave)
