"""The assistant's answer, rendered as Markdown while it streams."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Markdown, Static

MAX_STREAM_CHARS = 200_000
"""Past this many characters the display stops growing (the rollout keeps the whole answer)."""


class AgentCell(Horizontal):
    """A bullet and a Markdown body that grows as deltas arrive."""

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.text = text
        self._shown = 0
        self._clipped = False

    def compose(self) -> ComposeResult:
        self._shown = min(len(self.text), MAX_STREAM_CHARS)
        yield Static("•", classes="bullet")
        yield Markdown(self._visible(self.text))

    async def append(self, delta: str) -> None:
        """Add streamed text (partial lines included) and render it."""
        self.text += delta
        await self._render_new()

    async def finish(self, message: str) -> None:
        """Replace the streamed text with the authoritative full message if it differs."""
        if message.startswith(self.text):
            self.text = message
            await self._render_new()
        elif message != self.text:
            self.text = message
            self._clipped = False
            self._shown = min(len(message), MAX_STREAM_CHARS)
            if self.is_mounted:
                await self.query_one(Markdown).update(self._visible(message))

    async def _render_new(self) -> None:
        if self._clipped or not self.is_mounted:
            return
        markdown = self.query_one(Markdown)
        end = min(len(self.text), MAX_STREAM_CHARS)
        fresh = self.text[self._shown : end]
        self._shown = end
        if len(self.text) > MAX_STREAM_CHARS:
            self._clipped = True
            fresh += "\n\n*… answer too long to show in full; the transcript keeps all of it.*"
        if fresh:
            await markdown.append(fresh)

    def _visible(self, text: str) -> str:
        if len(text) <= MAX_STREAM_CHARS:
            return text
        self._clipped = True
        return text[:MAX_STREAM_CHARS] + "\n\n*… answer too long to show in full.*"
