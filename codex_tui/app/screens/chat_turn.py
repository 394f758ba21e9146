"""A turn's start and end on the chat screen: the status line and its clock, the footer's
hints, and what waits for the turn to end (queued messages, open approvals)."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, Protocol

from codex_tui.app import notifications
from codex_tui.app.clock import Clock
from codex_tui.app.screens.chat_approvals import ApprovalQueue
from codex_tui.app.screens.chat_items import ItemApplier
from codex_tui.app.screens.chat_outbox import Outbox
from codex_tui.app.screens.chat_pending import PendingInput
from codex_tui.app.turn_timer import TurnTimer
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.footer_bar import FooterBar
from codex_tui.app.widgets.status_line import StatusLine


class TurnHost(Protocol):
    """What a turn's start and end touch on the chat screen."""

    running: bool
    header: str
    """What the status line says the model is doing."""
    timer: TurnTimer
    clock: Clock
    approvals: ApprovalQueue
    pending_input: PendingInput
    outbox: Outbox
    applier: ItemApplier

    @property
    def composer(self) -> Composer:
        """Tab queues while a turn runs."""
        ...

    @property
    def footer(self) -> FooterBar:
        """Shows the keys of a running turn."""
        ...

    @property
    def status_line(self) -> StatusLine:
        """Spinner, header and elapsed time."""
        ...

    def notify_user(self, kind: notifications.NotificationKind, text: str) -> None:
        """A desktop notification, if configured."""
        ...

    def run_worker(self, work: Coroutine[Any, Any, Any], *, group: str) -> Any:
        """Run `work` in the background."""
        ...


def turn_started(host: TurnHost) -> None:
    """Show the status line and the keys of a running turn."""
    host.running = True
    host.header = "Working"
    host.timer.start()
    tick(host)
    host.footer.set_state(running=True)
    host.composer.queue_on_tab = True


def turn_ended(host: TurnHost, aborted: bool) -> float:
    """Hide the status line; send the next queued message, or restore them after Esc.
    Returns the turn's seconds (without approval waits)."""
    host.running = False
    seconds = host.timer.stop()
    host.status_line.hide()
    host.footer.set_state(running=False)
    host.composer.queue_on_tab = False
    host.notify_user(
        "agent-turn-complete", "Codex finished the turn" + (" (interrupted)" if aborted else "")
    )
    host.approvals.drop_all()
    if aborted:
        host.pending_input.restore()
    elif (queued := host.pending_input.next_queued()) is not None:
        host.run_worker(host.outbox.send(queued.text, queued.images), group="ops")
    return seconds


def tick(host: TurnHost) -> None:
    """Advance the spinners: the status line's and running commands'."""
    frame = int(host.clock.monotonic() * 10)
    if host.timer.running:
        host.status_line.show(
            header=host.header,
            elapsed=host.timer.elapsed(),
            frame=frame,
            waiting=host.approvals.open,
        )
    for cell in host.applier.tools.execs.values():
        cell.tick(frame)
