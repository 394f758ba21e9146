"""Ctrl+C and Ctrl+D on the chat screen: clear the draft, interrupt the turn, or quit — a
second Ctrl+C within two seconds quits, as in 0.169."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from codex_core.protocol import InterruptOp, Op
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.footer_bar import FooterBar

QUIT_WINDOW_SECONDS = 2.0
"""How long after a first Ctrl+C a second one quits."""


class QuitHost(Protocol):
    """What the quit keys need from the chat screen."""

    running: bool

    @property
    def composer(self) -> Composer:
        """Holds the draft a first Ctrl+C clears."""
        ...

    @property
    def footer(self) -> FooterBar:
        """Says that a second Ctrl+C quits."""
        ...

    async def submit_op(self, op: Op) -> None:
        """Submit an op to the session."""
        ...

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> Any:
        """Call `callback` after `delay` seconds."""
        ...


class QuitKeys:
    """The armed state of Ctrl+C and what each press does."""

    def __init__(self, host: QuitHost, on_quit: Callable[[], Awaitable[None]]) -> None:
        self.host = host
        self.on_quit = on_quit
        self.armed = False

    async def ctrl_c(self) -> None:
        """Clear the composer or interrupt; a second press within 2 s quits."""
        if self.armed:
            await self.on_quit()
            return
        host = self.host
        composer = host.composer
        if composer.text:
            composer.past.record(composer.text)  # ↑ brings the draft back, as in 0.169
            composer.clear_input()
        elif host.running:
            # Interrupting must not arm quit: the next ctrl+c would end the session.
            await host.submit_op(InterruptOp())
            return
        self.armed = True
        host.footer.set_state(quit_armed=True)
        host.set_timer(QUIT_WINDOW_SECONDS, self._disarm)

    async def ctrl_d(self) -> None:
        """Quit on an empty composer; otherwise delete forward."""
        composer = self.host.composer
        if composer.text:
            composer.action_delete_right()
        else:
            await self.on_quit()

    def _disarm(self) -> None:
        self.armed = False
        self.host.footer.set_state(quit_armed=False)
