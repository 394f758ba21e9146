"""Rich Markdown as the transcript shows it: headings flush left, code blocks without padding,
ordered lists numbered `1.`, links followed by their URL (as 0.169 prints them)."""

from __future__ import annotations

from functools import cache
from typing import ClassVar

from rich.console import Console, ConsoleOptions, JustifyMethod, RenderResult
from rich.markdown import CodeBlock, Heading, ListItem, Markdown, MarkdownElement
from rich.segment import Segment
from rich.syntax import Syntax

from codex_tui.app.markdown_split import markdown_parser


class LeftHeading(Heading):
    """Every heading level left-aligned (Rich centres `#` headings)."""

    LEVEL_ALIGN: ClassVar[dict[str, JustifyMethod]] = {f"h{level}": "left" for level in range(1, 7)}


class TightCodeBlock(CodeBlock):
    """A highlighted code block with no blank padding lines around it."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        code = str(self.text).rstrip()
        yield Syntax(code, self.lexer_name, theme=self.theme, word_wrap=True, padding=(0, 1))


class DottedListItem(ListItem):
    """An ordered list item numbered `1.` (Rich drops the dot), wrapped lines under its text."""

    def render_number(
        self, console: Console, options: ConsoleOptions, number: int, last_number: int
    ) -> RenderResult:
        number_width = len(str(last_number)) + 3
        render_options = options.update(width=options.max_width - number_width)
        lines = console.render_lines(self.elements, render_options, style=self.style)
        number_style = console.get_style("markdown.item.number", default=None)
        for index, line in enumerate(lines):
            lead = f"{number}.".rjust(number_width - 1) + " " if index == 0 else " " * number_width
            yield Segment(lead, number_style)
            yield from line
            yield Segment("\n")


class AgentMarkdown(Markdown):
    """The answer's Markdown; a link shows its URL after its text, so it can be read and
    copied in any terminal."""

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {
        **Markdown.elements,
        "heading_open": LeftHeading,
        "fence": TightCodeBlock,
        "code_block": TightCodeBlock,
        "list_item_open": DottedListItem,
    }

    def __init__(self, markup: str) -> None:
        # Rich builds a new markdown-it parser for every document (~0.7 ms, a fifth of a
        # streamed segment's render); the settings of a blank one and one parser are shared.
        self.__dict__.update(_blank().__dict__)
        self.markup = markup
        self.parsed = markdown_parser().parse(markup)


@cache
def _blank() -> Markdown:
    return Markdown("", hyperlinks=False)
