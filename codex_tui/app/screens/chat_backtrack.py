"""Backtrack: Esc Esc on an empty composer walks back through the user's messages; Enter
reverts the conversation to before the chosen one (a forked session, as 0.169 rewinds) and
puts it in the composer to edit and send again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from codex_tui.app.widgets.cells.user_cell import UserCell
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.footer_bar import FooterBar

ARM_SECONDS = 1.5


class BacktrackHost(Protocol):
    """What backtracking needs from the chat screen."""

    @property
    def composer(self) -> Composer:
        """The composer a chosen message is loaded into."""
        ...

    @property
    def footer(self) -> FooterBar:
        """The footer that shows the selection."""
        ...

    def set_timer(self, delay: float, callback: Callable[[], None]) -> object:
        """Call `callback` after `delay` seconds."""
        ...

    def hide_completion(self) -> None:
        """Close the completion popup (and re-sync the composer's key capture)."""
        ...

    def revert_to(self, index: int, text: str) -> None:
        """Fork the conversation before user message `index`, with `text` in the composer."""
        ...


class Backtrack:
    """Selection state over the session's user messages (0-based, oldest first)."""

    def __init__(self, host: BacktrackHost) -> None:
        self.host = host
        self.messages: list[str] = []
        self.cells: dict[int, UserCell] = {}
        self.armed = False
        self.active = False
        self.index: int | None = None

    def add(self, text: str, cell: UserCell) -> None:
        """A user message joined the transcript."""
        self.cells[len(self.messages)] = cell
        self.messages.append(text)

    def escape(self) -> None:
        """Esc with an empty, idle composer: arm, then start selecting the newest message."""
        if not self.messages:
            return
        if not self.armed and not self.active:
            self.armed = True
            self._footer()
            self.host.set_timer(ARM_SECONDS, self._disarm)
            return
        self.armed = False
        if not self.active:
            self.active = True
            self._select(len(self.messages) - 1)
        else:
            self._select(max(0, (self.index or 0) - 1))

    def key(self, key: str) -> None:
        """A navigation key while selecting."""
        if key in ("escape", "up"):
            self._select(max(0, (self.index or 0) - 1))
        elif key == "down":
            if self.index is not None and self.index + 1 < len(self.messages):
                self._select(self.index + 1)
            else:
                self.cancel()
        elif key == "enter" and self.index is not None:
            chosen = self.index
            self.cancel()
            self.host.revert_to(chosen, self.messages[chosen])
        else:
            self.cancel()

    def cancel(self) -> None:
        """Stop selecting (the composer keeps what it has)."""
        self._highlight(None)
        self.active = False
        self.armed = False
        self.index = None
        self.host.hide_completion()
        self._footer()

    def _select(self, index: int) -> None:
        self.index = index
        self._highlight(index)
        self.host.hide_completion()  # re-syncs the composer's key capture
        self._footer()

    def _highlight(self, index: int | None) -> None:
        for number, cell in self.cells.items():
            cell.set_class(number == index, "-selected")
            if number == index and cell.is_mounted:
                cell.scroll_visible(animate=False)

    def _disarm(self) -> None:
        if self.armed:
            self.armed = False
            self._footer()

    def _footer(self) -> None:
        footer = self.host.footer
        if self.active:
            total = len(self.messages)
            footer.set_mode(f"backtrack {(self.index or 0) + 1}/{total}")
        elif self.armed:
            footer.set_mode("esc-armed")
        else:
            footer.set_mode(None)
