"""What the chat screen shows that the session frame also paints before Textual loads
(`codex_tui.cli.session_frame`): the header's hints, and when an answer's Markdown is plain
text. Standard library only."""

from __future__ import annotations

HINTS = (
    ("/resume", "pick a past session to continue"),
    ("/new", "start a new session"),
    ("/compact", "summarise the conversation to free context"),
    ("/quit", "leave (or ctrl+c twice)"),
)
"""The commands the session header lists."""
PLAIN_PUNCTUATION = frozenset(" ,.;:?'\"()-/")
"""Characters besides letters and digits that Markdown shows as they are inside one line of
a paragraph (no emphasis, code, link, escape, entity or HTML can start with them)."""


def plain_paragraph(source: str) -> str | None:
    """The text Markdown shows for `source` when it is one line of plain words (a letter
    first, then letters, digits, spaces and `PLAIN_PUNCTUATION`: a paragraph whose trailing
    spaces Markdown drops), else None."""
    if not source[:1].isalpha():
        return None
    if all(char.isalnum() or char in PLAIN_PUNCTUATION for char in source):
        return source.rstrip(" ")
    return None
