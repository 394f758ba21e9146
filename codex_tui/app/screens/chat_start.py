"""A session's first moments on the chat screen: its header, a resumed session's past, the
launch prompt, and a line when some hooks await review."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Protocol

from textual.widget import Widget

from codex_core.frontend.home import codex_home_dir
from codex_core.items import client as c
from codex_core.items import notices as n
from codex_core.protocol.common import AskForApproval, SandboxPolicy
from codex_core.terminal_text import printable_event
from codex_tui.app.extensions_view import hooks_review_notice
from codex_tui.app.screens.chat_items import ItemApplier
from codex_tui.app.screens.chat_outbox import Outbox, Outgoing
from codex_tui.app.widgets.cells.header_cell import HeaderCell
from codex_tui.app.widgets.cells.notice_cell import NoticeCell
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.footer_bar import FooterBar

HOOKS_WAIT_SECONDS = 5.0
"""How long the hooks line waits for the session to say where it runs."""


class StartHost(Protocol):
    """What the session's start needs from the chat screen."""

    version: str
    model: str | None
    effort: str | None
    provider: str | None
    approval: AskForApproval | None
    sandbox: SandboxPolicy | None
    notice: str | None
    pending: Outgoing | None
    codex_home: str | None
    applier: ItemApplier
    outbox: Outbox

    @property
    def composer(self) -> Composer:
        """Gets the history's size and the workspace for @ search."""
        ...

    @property
    def footer(self) -> FooterBar:
        """Shows the model."""
        ...

    @property
    def workspace(self) -> Path:
        """The session's working directory."""
        ...

    async def add_cell(self, cell: Widget) -> None:
        """Append a cell to the transcript."""
        ...


async def show_session(screen: StartHost, started: n.ThreadStarted) -> None:
    """Header, history, and a resumed session's past; then the launch prompt."""
    screen.model, screen.effort = started.model, started.reasoning_effort
    screen.provider = started.model_provider_id
    screen.approval, screen.sandbox = started.approval_policy, started.sandbox_policy
    screen.footer.set_state(model=screen.model, effort=screen.effort)
    await screen.add_cell(HeaderCell.of_session(started, screen.version))
    screen.composer.past.configure(started.history_log_id, started.history_entry_count)
    screen.composer.workspace = screen.workspace
    # Model text and output never reach the terminal raw (the live ones neither: the pump).
    for past in c.history(started, prepare=printable_event):
        await screen.applier.apply(past, replay=True)
    if screen.notice is not None:
        await screen.add_cell(NoticeCell("info", screen.notice))
    if screen.pending is not None:
        pending, screen.pending = screen.pending, None
        await screen.outbox.send(pending.text, pending.images)


async def tell_hooks_needing_review(screen: StartHost) -> None:
    """Once the session says where it runs: a line if some hooks await review."""
    for _ in range(int(HOOKS_WAIT_SECONDS / 0.05)):
        if screen.applier.cwd:
            break
        await asyncio.sleep(0.05)
    home = Path(screen.codex_home or codex_home_dir())
    line = await asyncio.to_thread(hooks_review_notice, home, screen.workspace)
    if line:
        await screen.add_cell(NoticeCell("info", line))
