"""Messages written while a turn runs: Enter steers them into the turn, Tab queues them.

A steered message is sent at once (`steer_input`) and listed until the session says it
joined the turn (its `user_message`); a queued one waits for the turn to end. After an
interrupt, both come back to the composer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from codex_core.protocol import AddToHistoryOp, Op, SteerInputOp
from codex_core.protocol.common import InputItem, LocalImageInput, TextInput
from codex_tui.app.screens.chat_outbox import Outgoing
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.footer_bar import FooterBar
from codex_tui.app.widgets.queued_list import QueuedList


class PendingHost(Protocol):
    """What the pending list needs from the chat screen."""

    @property
    def composer(self) -> Composer:
        """Where messages come back after an interrupt."""
        ...

    @property
    def footer(self) -> FooterBar:
        """Shows how many wait."""
        ...

    @property
    def queued_list(self) -> QueuedList:
        """Lists them above the composer."""
        ...

    async def submit_op(self, op: Op) -> None:
        """Submit an op to the session."""
        ...


class PendingInput:
    """Steered messages not yet in the turn, and queued ones waiting for its end."""

    def __init__(self, host: PendingHost) -> None:
        self.host = host
        self.steering: list[Outgoing] = []
        self.queued: list[Outgoing] = []

    async def steer(self, text: str, images: Sequence[str]) -> None:
        """Enter while a turn runs: the message joins the turn at its next request."""
        items: list[InputItem] = [TextInput(text=text)] if text else []
        items += [LocalImageInput(path=path) for path in images]
        if not items:
            return
        self.steering.append(Outgoing(text, tuple(images)))
        self._show()
        await self.host.submit_op(SteerInputOp(items=items))
        if text.strip():
            await self.host.submit_op(AddToHistoryOp(text=text))

    def queue(self, text: str, images: Sequence[str]) -> None:
        """Tab while a turn runs: the message is sent when the turn ends."""
        self.queued.append(Outgoing(text, tuple(images)))
        self._show()

    def joined(self, text: str) -> None:
        """The session showed a user message: a steered one has joined the turn."""
        for index, waiting in enumerate(self.steering):
            if waiting.text == text:
                del self.steering[index]
                self._show()
                return

    def next_queued(self) -> Outgoing | None:
        """The turn ended: the queued message to send now, if any."""
        if not self.queued:
            return None
        first = self.queued.pop(0)
        self._show()
        return first

    def restore(self) -> None:
        """After an interrupt: everything not sent yet goes back into the composer."""
        waiting = [*self.steering, *self.queued]
        if not waiting:
            return
        composer = self.host.composer
        restored = "\n".join([*(m.text for m in waiting), composer.text]).strip()
        self.steering.clear()
        self.queued.clear()
        composer.load_text(restored)
        composer.move_cursor(composer.document.end)
        self._show()

    def _show(self) -> None:
        self.host.queued_list.show([m.text for m in self.steering], [m.text for m in self.queued])
        self.host.footer.set_state(queued=len(self.queued) + len(self.steering))
