"""A streamed answer is cut between Markdown blocks, so the live segment stays small and the
segments draw exactly what the whole answer draws (Rich's rendering, line by line)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.segment import Segment

from codex_tui.app import markdown_split
from codex_tui.app.markdown_render import AgentMarkdown
from codex_tui.app.markdown_split import BLOCK_CHARS, StreamSegments

WIDTH = 60
CONSOLE = Console(width=WIDTH, color_system="truecolor", force_terminal=True)
WORDS = st.lists(st.sampled_from("alpha beta gamma delta `code` **bold** x".split()), min_size=1)


def _words(words: list[str]) -> str:
    return " ".join(words)


BLOCKS = st.one_of(
    WORDS.map(_words),
    WORDS.map(lambda w: "## " + _words(w)),
    st.lists(WORDS.map(lambda w: "- " + _words(w)), min_size=1, max_size=4).map("\n".join),
    st.lists(WORDS, min_size=1, max_size=12).map(
        lambda items: "\n\n".join(f"{i + 1}. {_words(w)}" for i, w in enumerate(items))
    ),
    WORDS.map(lambda w: "> " + _words(w) + "\n> more"),
    st.integers(1, 6).map(
        lambda n: "```python\n" + "\n\n".join(f"x = {i}" for i in range(n)) + "\n```"
    ),
    st.just("    indented code\n    more"),
    st.integers(1, 4).map(lambda n: "| a | b |\n|---|---|\n" + "| 1 | 2 |\n" * n),
    st.just("---"),
    WORDS.map(lambda w: "- item " + _words(w) + "\n\n  continued"),
    st.just("<div>raw</div>"),
)


def _lines(source: str) -> list[str]:
    """The segment as Rich draws it, a blank line as ''."""
    if not source:
        return []
    options = CONSOLE.options.update_width(WIDTH).update(highlight=False)
    rendered = CONSOLE.render(AgentMarkdown(source), options)
    lines = Segment.split_and_crop_lines(rendered, WIDTH, include_new_lines=False, pad=False)
    out = []
    for line in lines:
        drawn = "".join(f"{segment.text}\x00{segment.style}" for segment in line)
        out.append(drawn if "".join(segment.text for segment in line).strip() else "")
    return out


def _drawn(segments: StreamSegments) -> list[str]:
    """The segments one after the other, as AgentCell draws them."""
    out: list[str] = []
    for index, source in enumerate(segments.sources):
        lines = _lines(source)
        if lines and out and segments.blank_before[index]:
            if not (segments.at_block[index] and lines[0] == ""):
                out.append("")
        out += lines
    return out


@settings(max_examples=40, deadline=None)
@given(
    blocks=st.lists(BLOCKS, min_size=2, max_size=25),
    joins=st.lists(st.sampled_from(["\n\n", "\n\n", "\n", "\n\n\n"]), min_size=25, max_size=25),
    steps=st.lists(st.integers(1, 40), min_size=1, max_size=50),
    block_chars=st.sampled_from([40, 120, BLOCK_CHARS]),
)
def test_segments_cut_between_blocks_draw_the_whole_answer(
    blocks: list[str], joins: list[str], steps: list[int], block_chars: int
) -> None:
    text = blocks[0] + "".join(j + b for j, b in zip(joins, blocks[1:], strict=False))
    original = markdown_split.BLOCK_CHARS
    markdown_split.BLOCK_CHARS = block_chars
    try:
        segments = StreamSegments(limit=200_000)
        end = 0
        for step in steps * (len(text) // max(sum(steps), 1) + 1):
            end += step
            segments.update(text[:end])
            if end >= len(text):
                break
        segments.update(text)
    finally:
        markdown_split.BLOCK_CHARS = original
    assert "".join(segments.sources).count("alpha") == text.count("alpha")
    assert _drawn(segments) == _lines(text)


def test_the_live_segment_of_a_long_answer_is_its_last_blocks() -> None:
    paragraph = "word " * 40
    text = "\n\n".join(f"{paragraph}{i}" for i in range(200))  # 40k characters
    segments = StreamSegments(limit=200_000)
    live: list[int] = []
    for end in range(0, len(text) + 1, 53):
        segments.update(text[:end])
        live.append(len(segments.sources[-1]))
    assert max(live) <= BLOCK_CHARS + len(paragraph) + 60
    assert all(segments.at_block[1:]) and len(segments.sources) > 20


def test_the_shared_parser_reads_markdown_as_richs_own_does() -> None:
    from rich.markdown import Markdown

    sample = "# T\n\n| a | b |\n|---|---|\n| ~~x~~ | [l](http://u) |\n\n- i\n\n```py\nx\n```"
    ours = [(t.type, t.content, t.map) for t in AgentMarkdown(sample).parsed]
    rich = [(t.type, t.content, t.map) for t in Markdown(sample).parsed]
    assert ours == rich
    assert any(t.type == "table_open" for t in AgentMarkdown(sample).parsed)
