"""Rich Markdown as the transcript shows it: headings flush left, code blocks without padding."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Console, ConsoleOptions, JustifyMethod, RenderResult
from rich.markdown import CodeBlock, Heading, Markdown, MarkdownElement
from rich.syntax import Syntax


class LeftHeading(Heading):
    """Every heading level left-aligned (Rich centres `#` headings)."""

    LEVEL_ALIGN: ClassVar[dict[str, JustifyMethod]] = {f"h{level}": "left" for level in range(1, 7)}


class TightCodeBlock(CodeBlock):
    """A highlighted code block with no blank padding lines around it."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        code = str(self.text).rstrip()
        yield Syntax(code, self.lexer_name, theme=self.theme, word_wrap=True, padding=(0, 1))


class AgentMarkdown(Markdown):
    """The answer's Markdown."""

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {
        **Markdown.elements,
        "heading_open": LeftHeading,
        "fence": TightCodeBlock,
        "code_block": TightCodeBlock,
    }
