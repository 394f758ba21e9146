"""A message the user sent."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


class UserCell(Static):
    """The user's words, with a `›` gutter."""

    def __init__(self, message: str, *, images: int = 0) -> None:
        self.message = message
        parts: list[str | tuple[str, str]] = [("› ", "bold $accent"), message.rstrip()]
        if images:
            parts.append(
                (f"\n  [{images} image{'s' if images != 1 else ''} attached]", "$text-muted")
            )
        super().__init__(Content.assemble(*parts))
