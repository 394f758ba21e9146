"""A message the user sent."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from codex_tui.app.pasted_image import PLACEHOLDER, numbers_in, placeholder


class UserCell(Static):
    """The user's words, with a `›` gutter; attached images by their `[Image #N]` names."""

    def __init__(self, message: str, *, images: int = 0) -> None:
        self.message = message
        text = message.rstrip()
        named = numbers_in(text)
        # Images attached with -i (or pasted placeholders since deleted) are named on a line
        # of their own; pasted ones are already named where they sit in the text.
        unnamed = [placeholder(n) for n in range(1, images + 1) if n not in named]
        if unnamed:
            text = " ".join(unnamed) + ("\n" + text if text else "")
        body = Content(text).highlight_regex(PLACEHOLDER, style="$accent")
        super().__init__(Content.assemble(("› ", "bold $accent"), body))
