"""The session frame's painter (codex_tui/cli/session_frame.py): what it paints from the
child's messages, where it stops, and that it only ever writes printable ASCII of what the
child and the model sent. Cell-for-cell identity with Textual: tests/e2e/
test_tui_session_frame.py."""

from __future__ import annotations

import re

import pyte
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

from codex_core.policies import CHOSEN_APPROVALS
from codex_tui.app.widgets.footer_bar import footer_line
from codex_tui.app.wire_values import wire_sandbox
from codex_tui.cli.first_frame import FOOTER_HINTS, footer_row
from codex_tui.cli.session_frame import APPROVALS, SANDBOX_MODES, wrap_words
from tests.support.painted_frame import (
    PaintedFrame,
    answer_started,
    delta,
    painter_on,
    thread_result,
)

CSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


STARTED = answer_started()


def test_the_header_prompt_and_streamed_answer_are_painted_where_the_chat_shows_them() -> None:
    frame = PaintedFrame()
    painter = painter_on(frame)
    assert painter.opened(thread_result())
    for message in (
        {"id": "turn/start-2", "result": {}},
        {"method": "turn/started", "params": {"turn": {}}},
        {"method": "item/started", "params": {"item": {"id": "u", "type": "userMessage"}}},
        STARTED,
        delta("Zebra42"),
        delta(" answers"),
    ):
        assert painter.message(message), message
    text = frame.text()
    assert text[2] == " │ >_ Codex (v1.2.3)" + " " * 36 + "│"
    assert text[4].startswith(" │ model:     gpt-5.1-codex ")
    assert text[5].startswith(" │ directory: ~/project ")
    assert text[6].startswith(" │ approval:  on-request ")
    assert text[7].startswith(" │ sandbox:   read-only ")
    assert text[15] == " › say hi"
    assert text[17] == " • Zebra42 answers"
    assert text[-1].endswith("gpt-5.1-codex")
    completed = {
        "method": "item/completed",
        "params": {"item": {"id": "m1", "type": "agentMessage", "text": "Zebra42 answers all"}},
    }
    assert not painter.message(completed)  # the final text is painted, then no more
    assert frame.text()[17] == " • Zebra42 answers all"


def test_a_long_answer_wraps_and_only_changed_lines_are_painted_again() -> None:
    frame = PaintedFrame(40, 30)
    painter = painter_on(frame, "go")
    assert not painter.opened(thread_result(cwd="/w"))  # a header of 56 columns does not fit 40
    assert frame.writes == []
    frame = PaintedFrame(80, 30)
    painter = painter_on(frame, "go")
    assert painter.opened(thread_result()) and painter.message(STARTED)
    words = "Plain words (and more), then some: wrapped. " * 4
    assert painter.message(delta(words))
    assert painter.message(delta("End"))
    text = frame.text()
    assert text[17].startswith(" • Plain words") and text[19].startswith("   ")
    assert "End" in text[19] + text[20]
    assert "Plain" not in frame.writes[-1]  # the last delta repainted only the last line


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(
        st.from_regex(r"[A-Za-z][A-Za-z0-9,.;:?'\"()/-]{0,14}", fullmatch=True), min_size=1
    ),
    width=st.integers(8, 100),
)
def test_wrapping_is_richs(words: list[str], width: int) -> None:
    text = " ".join(words)
    wrapped = wrap_words(text, width)
    if wrapped is None:
        assert any(len(word) > width for word in words)
        return
    console = Console(width=width, color_system=None, force_terminal=False)
    with console.capture() as captured:
        console.print(Text(text, justify="left"))
    assert [line.rstrip() for line in captured.get().splitlines()] == (wrapped or [""])


def test_it_stops_at_what_it_cannot_draw_as_the_app_will() -> None:
    refused_results = [
        thread_result(
            thread={"id": "t1", "turns": [{"id": "old"}]}
        ),  # a resumed session shows its past first
        thread_result(approvalPolicy={"granular": {}}),
        thread_result(sandbox={"type": "externalSandbox"}),
        thread_result(model="gpt-\x1b[31m5"),
        thread_result(cwd="/home/me/проект"),
        thread_result(cwd="/" + "d" * 200),
    ]
    for result in refused_results:
        frame = PaintedFrame()
        assert not painter_on(frame).opened(result), result
        assert frame.writes == []
    for prompt in ("**bold**", "two\nlines", "1. a list", "é", "x" * 200):
        frame = PaintedFrame()
        assert not painter_on(frame, prompt).opened(thread_result()), prompt
        assert frame.writes == []
    stoppers = [
        {"method": "item/started", "params": {"item": {"id": "r", "type": "reasoning"}}},
        {"method": "configWarning", "params": {"summary": "x"}},
        {"method": "item/started", "params": {"item": {"id": "m2", "type": "agentMessage"}}},
        delta("some *emphasis*"),
        delta("\x1b]0;owned\x07"),
        delta("漢字"),
        delta("x", item="other"),
        {"method": "error", "params": "not an object"},
    ]
    for stopper in stoppers:
        frame = PaintedFrame()
        painter = painter_on(frame)
        assert painter.opened(thread_result()) and painter.message(STARTED)
        before = list(frame.writes)
        assert not painter.message(stopper), stopper
        assert frame.writes == before  # what was painted stays; nothing more is


def test_nothing_is_painted_once_textual_has_the_screen() -> None:
    frame = PaintedFrame()
    painter = painter_on(frame)
    assert painter.opened(thread_result()) and painter.message(STARTED)
    frame.open = False
    assert not painter.message(delta("late"))


def test_only_printable_ascii_of_the_childs_text_is_written() -> None:
    frame = PaintedFrame()
    painter = painter_on(frame, "hello there")
    assert painter.opened(thread_result(model="m"))
    painter.message(STARTED)
    painter.message(delta("Fine words, then (more) words."))
    drawn = set("╭╮╰╯│─•›⏎")  # the frame's own box, bullet and marks
    for write in frame.writes:
        body = CSI.sub("", write)  # every escape the painter writes is a CSI of its own
        assert all((char.isascii() and char.isprintable()) or char in drawn for char in body)


def test_the_wire_values_read_as_the_app_reads_them() -> None:
    assert set(CHOSEN_APPROVALS) == APPROVALS
    for wire, mode in SANDBOX_MODES.items():
        assert wire_sandbox({"type": wire}).mode == mode


def test_the_footer_is_the_apps_at_every_width() -> None:
    from textual.content import Content

    for width in range(8, 130):
        for model in ("", "gpt-5.1-codex"):
            screen = pyte.Screen(width + 2, 1)
            pyte.Stream(screen).feed(footer_row(width + 2, model))
            # `FooterBar.render`'s attempts: every hint and the model, then fewer hints
            hints = list(FOOTER_HINTS)
            attempts = [(len(hints), [Content(model)] if model else [])]
            attempts += [(count, []) for count in range(len(hints), 0, -1)]
            for count, facts in attempts:
                line = footer_line(hints[:count], facts, width)  # type: ignore[arg-type]
                if line.cell_length <= width:
                    break
            else:
                continue  # not even one hint fits: the app clips it, the frame cuts it
            assert screen.display[0][1:].rstrip() == line.plain.rstrip(), width
            bold = [x for x in range(width + 2) if screen.buffer[0][x].bold]
            assert bold and bold[0] == 1  # the first key
