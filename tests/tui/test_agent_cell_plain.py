"""An answer's first plain words are drawn before the Markdown renderer has loaded (issue 29:
launch → answer on screen): one line of letters, digits, spaces and a few punctuation marks
draws the same lines as its Markdown, whatever the width; anything else waits for Markdown."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.text import Text

from codex_tui.app.chat_words import PLAIN_PUNCTUATION, plain_paragraph
from codex_tui.app.markdown_render import AgentMarkdown
from tests.support.fresh_python import python_output

CONSOLE = Console(width=120, color_system="truecolor", force_terminal=True)
WORDS = st.text(
    alphabet=st.one_of(
        st.characters(categories=["L", "N"]), st.sampled_from(sorted(PLAIN_PUNCTUATION))
    ),
    max_size=160,
)


def _lines(renderable: RenderableType, width: int) -> list[list[Segment]]:
    options = CONSOLE.options.update_width(width).update(highlight=False)
    segments = CONSOLE.render(renderable, options)
    return list(Segment.split_and_crop_lines(segments, width, include_new_lines=False, pad=False))


@settings(max_examples=400, deadline=None)
@given(first=st.characters(categories=["L"]), rest=WORDS, width=st.integers(1, 100))
def test_plain_words_draw_as_their_markdown(first: str, rest: str, width: int) -> None:
    source = first + rest
    plain = plain_paragraph(source)
    assert plain is not None
    assert _lines(Text(plain, justify="left"), width) == _lines(AgentMarkdown(source), width)


def test_anything_markdown_may_style_waits_for_markdown() -> None:
    for source in [
        "",
        " indented",
        "1. a list",
        "- a list",
        "# heading",
        "> quote",
        "some *emphasis*",
        "some `code`",
        "a [link](x)",
        "an &amp; entity",
        "a <b>tag</b>",
        "an escape \\*",
        "two\nlines",
        "a\ttab",
        "~~gone~~",
        "a | b",
        "words_with_underscores",
    ]:
        assert plain_paragraph(source) is None, source
    assert plain_paragraph("Plain words, then more (and more) words.  ") == (
        "Plain words, then more (and more) words."
    )


def test_a_plain_answer_paints_before_markdown_loads_and_then_loads_it() -> None:
    """In a fresh interpreter: the answer's lines are on the screen with the renderer not
    loaded; once painted, the renderer loads in a thread, and the lines stay the same."""
    code = """
import asyncio, json, sys, threading
from textual.app import App
from codex_tui.app.widgets.cells import agent_cell
from codex_tui.app.widgets.cells.agent_cell import AgentCell

drawn = []
plain = agent_cell._renderable
def recorded(source):
    drawn.append((type(plain(source)).__name__, agent_cell.MARKDOWN_RENDERER in sys.modules))
    return plain(source)
agent_cell._renderable = recorded

class One(App):
    def compose(self):
        yield AgentCell("Zebra42 answers in plain words, long enough to wrap at this width.")

async def main():
    app = One()
    async with app.run_test(size=(40, 8)) as pilot:
        await pilot.pause()
        cell = app.query_one(AgentCell)
        before = [cell.render_line(y).text for y in range(cell.size.height)]
        for loader in agent_cell._markdown_loader:
            loader.join(30)
        cell._forget_lines()
        after = [cell.render_line(y).text for y in range(cell.size.height)]
    print(json.dumps([before, after, drawn[0], agent_cell.MARKDOWN_RENDERER in sys.modules]))

asyncio.run(main())
"""
    before, after, first_drawn, loaded_after = json.loads(python_output(code))
    assert before[0].startswith("• Zebra42 answers") and len(before) > 1
    assert first_drawn == ["Text", False]  # drawn as text, the renderer not loaded
    assert loaded_after
    assert after == before
