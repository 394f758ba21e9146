"""Pick a recorded session to resume (or fork): newest first, type to search, pages load as
you scroll; the highlighted row is marked `›` as in 0.169, so it reads without colour."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static
from textual.widgets.data_table import ColumnKey, RowKey

from codex_core.frontend.relative_time import relative_age
from codex_core.servers.app_server.remote import RemoteError
from codex_core.terminal_text import printable
from codex_tui.app.clock import Clock
from codex_tui.app.core import SessionSource, SessionSummary
from codex_tui.app.formatting import shorten_path, truncate_line
from codex_tui.app.widgets.marked_list import MARKER

LOAD_AHEAD_ROWS = 8
"""Load the next page when the cursor gets this close to the last row."""
MAX_FILTER_PAGES = 20
"""While searching, fetch at most this many extra pages looking for matches."""


def matches(item: SessionSummary, query: str) -> bool:
    """Whether a row matches the search text (case-insensitive, any column)."""
    if not query:
        return True
    needle = query.lower()
    fields = (item.preview, item.branch or "", item.cwd, item.id)
    return any(needle in field.lower() for field in fields)


MIN_CONVERSATION = 24
"""Columns the Conversation keeps however narrow the terminal (the others shrink first)."""


class ResumePickerScreen(Screen[Path | None]):
    """Dismisses with the chosen rollout path, or None to start a new session."""

    CSS_PATH = "resume_picker.tcss"
    BINDINGS = [
        Binding("escape", "new_session", "new session", show=False),
        Binding("enter", "choose", "resume", show=False, priority=True),
        Binding("up", "move(-1)", show=False, priority=True),
        Binding("down", "move(1)", show=False, priority=True),
        Binding("pageup", "page(-1)", show=False, priority=True),
        Binding("pagedown", "page(1)", show=False, priority=True),
        Binding("ctrl+c", "app.quit", show=False, priority=True),
    ]

    def __init__(
        self,
        source: SessionSource,
        clock: Clock,
        *,
        show_all: bool = False,
        in_app: bool = False,
        fork: bool = False,
        on_listed: Callable[[], object] | None = None,
    ) -> None:
        super().__init__()
        self.source = source
        self.clock = clock
        self.show_all = show_all
        self.items: list[SessionSummary] = []
        self.shown: list[SessionSummary] = []
        self.next_cursor: str | None = None
        self.exhausted = False
        self.loading = False
        self.failure: str | None = None
        """Why the sessions cannot be listed at all (the remote server is unreachable)."""
        self.query_text = ""
        self._filter_pages = 0
        self.skipped: list[str] = []
        self.in_app = in_app
        """Opened by /resume: Esc goes back to the conversation instead of starting one."""
        self.fork = fork
        """`codex fork`: the chosen session is copied, so the title and Enter say fork."""
        self._marked: RowKey | None = None
        self._on_listed = on_listed
        self._pending: list[Callable[[], None]] = []
        """Moves and Enter pressed before the first page arrived, in order."""
        """Called once, after the first page is on the screen (the app starts getting the
        session ready then, not while the list loads)."""

    def compose(self) -> ComposeResult:
        scope = "all directories" if self.show_all else "this directory"
        with Vertical(id="picker"):
            yield Static(
                Content.assemble(
                    (f"{'Fork' if self.fork else 'Resume'} a previous session", "bold"),
                    (f" · {scope}", "$text-muted"),
                ),
                id="picker-title",
            )
            yield Input(placeholder="Type to search", id="picker-search")
            table: DataTable[str | Content] = DataTable(
                id="picker-table", cursor_type="row", zebra_stripes=False
            )
            yield table
            yield Static("Loading sessions…", id="picker-status")
            yield Static(self._hint(0), id="picker-hint")

    def on_mount(self) -> None:
        """Paint at once; rows arrive from a background load."""
        table = self.query_one(DataTable)
        table.add_column("", key="marker", width=len(MARKER.strip()))
        table.add_column("Updated", key="updated", width=16)
        table.add_column("Branch", key="branch", width=16)
        table.add_column("CWD", key="cwd", width=24)
        table.add_column("Conversation", key="conversation", width=40)
        self.query_one(Input).focus()
        self._load_more()

    def _hint(self, width: int) -> Content:
        return hint_lines(
            [
                ("enter", "fork" if self.fork else "resume"),
                ("esc", "back" if self.in_app else "new session"),
                ("↑↓ pgup pgdn", "move"),
                ("ctrl+c", "quit"),
            ],
            width,
        )

    def on_resize(self) -> None:
        """The hint breaks between keys; the conversation column takes the width the others leave; on a narrow terminal it
        keeps `MIN_CONVERSATION` columns and branch and directory share what is left."""
        self.query_one("#picker-hint", Static).update(self._hint(self.size.width - 2))
        table = self.query_one(DataTable)
        padding = 2 * table.cell_padding * len(table.columns) + 1
        available = self.size.width - 2 - padding - len(MARKER.strip())
        branch_width, cwd_width = 16, 24
        rest = available - 16 - MIN_CONVERSATION
        if rest < branch_width + cwd_width:
            branch_width = min(branch_width, max(0, rest) // 3)
            cwd_width = max(0, rest - branch_width)
        widths = {"branch": branch_width, "cwd": cwd_width}
        widths["conversation"] = max(MIN_CONVERSATION, available - 16 - branch_width - cwd_width)
        for key, width in widths.items():
            column = table.columns[ColumnKey(key)]
            column.auto_width = False
            column.width = width
        table.refresh()

    def _load_more(self) -> None:
        if self.loading or self.exhausted:
            return
        self.loading = True
        self.run_worker(self._fetch(self.next_cursor), group="pages")

    async def _fetch(self, cursor: str | None) -> None:
        try:
            page = await asyncio.to_thread(self.source.list_page, cursor, self.show_all)
        except OSError as err:
            self.loading = False
            self.exhausted = True
            self._set_status(f"Could not read sessions: {err.strerror or err}.")
            self._listed()
            return
        except RemoteError as err:  # --remote: no server to list
            if self.in_app:
                self.loading, self.exhausted = False, True
                self._set_status(f"Could not read sessions: {err}.")
                self._listed()
            else:  # at start-up, as 0.169: the app ends with one line, exit 1
                self.failure = str(err)
                self.dismiss(None)
            return
        self.loading = False
        self.items.extend(page.items)
        self.skipped.extend(p for p in page.skipped if p not in self.skipped)
        self.next_cursor = page.next_cursor
        self.exhausted = page.next_cursor is None
        self._refilter(keep_cursor=True)
        self._listed()
        pending, self._pending = self._pending, []
        for replay in pending:
            replay()

    def _listed(self) -> None:
        if self._on_listed is not None:
            self.call_after_refresh(self._on_listed)
            self._on_listed = None

    def _refilter(self, *, keep_cursor: bool = False) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row if keep_cursor else 0
        now = self.clock.now()
        self.shown = [item for item in self.items if matches(item, self.query_text)]
        table.clear()
        self._marked = None
        for item in self.shown:
            table.add_row(
                "",
                relative_age(item.updated, now),
                Content.styled(item.branch or "-", "$text-muted" if not item.branch else ""),
                shorten_path(item.cwd),
                truncate_line(" ".join(printable(item.preview).split()), 200) or "(no message)",
                key=item.id,
            )
        if self.shown:
            table.move_cursor(row=min(row, len(self.shown) - 1))
            self._mark(table.cursor_row)
        self._update_status()
        if self.query_text and len(self.shown) < 10 and self._filter_pages < MAX_FILTER_PAGES:
            self._filter_pages += 1
            self._load_more()
        else:
            self._maybe_load_ahead()

    def _update_status(self) -> None:
        if self.loading and not self.items:
            text = "Loading sessions…"
        elif not self.items:
            text = "No recorded sessions yet: press esc to " + (
                "go back." if self.in_app else "start a new one."
            )
        elif not self.shown:
            text = f"No session matches “{self.query_text}”."
        else:
            more = "" if self.exhausted else " (more load as you scroll)"
            noun = "session" if len(self.shown) == 1 else "sessions"
            text = f"{len(self.shown)} {noun}{more}"
        self._set_status(text)

    def _set_status(self, text: str) -> None:
        status = Content.styled(text, "$text-muted")
        if self.skipped:
            status = Content.assemble(
                status, "\n", Content.styled(skipped_line(self.skipped), "$warning")
            )
        self.query_one("#picker-status", Static).update(status)

    def _maybe_load_ahead(self) -> None:
        table = self.query_one(DataTable)
        if len(self.shown) - table.cursor_row <= LOAD_AHEAD_ROWS:
            self._load_more()

    @on(DataTable.RowHighlighted, "#picker-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._mark(event.cursor_row)

    def _mark(self, row: int) -> None:
        """Put the marker on row `row` (and take it off the row that had it)."""
        table = self.query_one(DataTable)
        if not 0 <= row < len(self.shown):
            return
        key = RowKey(self.shown[row].id)
        if key == self._marked:
            return
        if self._marked is not None and self._marked in table.rows:
            table.update_cell(self._marked, "marker", "")
        table.update_cell(key, "marker", Content.styled(MARKER.strip(), "bold"))
        self._marked = key

    @on(Input.Changed, "#picker-search")
    def _search(self, event: Input.Changed) -> None:
        self.query_text = event.value.strip()
        self._filter_pages = 0
        self._refilter()

    def _early(self, replay: Callable[[], None]) -> bool:
        """Keep a key pressed before the first page arrived (on `codex resume`'s frame,
        which shows that page already) to replay once it is here; True if kept."""
        if self.items or not self.loading:
            return False
        self._pending.append(replay)
        return True

    def action_move(self, delta: int) -> None:
        """Arrow keys move the highlighted row."""
        if self._early(lambda: self.action_move(delta)):
            return
        table = self.query_one(DataTable)
        if self.shown:
            table.move_cursor(row=max(0, min(len(self.shown) - 1, table.cursor_row + delta)))
        self._maybe_load_ahead()

    def action_page(self, direction: int) -> None:
        """PgUp/PgDn move by a screenful."""
        table = self.query_one(DataTable)
        self.action_move(direction * max(1, table.size.height - 2))

    def action_choose(self) -> None:
        """Resume the highlighted session."""
        if self._early(self.action_choose):
            return
        table = self.query_one(DataTable)
        if self.shown and 0 <= table.cursor_row < len(self.shown):
            self.dismiss(self.shown[table.cursor_row].path)

    def action_new_session(self) -> None:
        """Start fresh instead."""
        self.dismiss(None)


def skipped_line(paths: list[str]) -> str:
    """One line naming the files the listing skipped because they are not Codex sessions."""
    more = f" and {len(paths) - 1} more" if len(paths) > 1 else ""
    what = (
        "file that is not a Codex session"
        if len(paths) == 1
        else "files that are not Codex sessions"
    )
    return f"Skipped {len(paths)} {what}: {os.path.basename(paths[0])}{more}"


def hint_lines(hints: list[tuple[str, str]], width: int) -> Content:
    """`key action · key action`, broken into lines between hints (never inside one) when
    `width` is known (> 0)."""
    lines: list[Content] = []
    line = Content("")
    for key, action in hints:
        hint = Content.assemble((key, "bold"), f" {action}")
        joined = Content.assemble(line, " · ", hint) if line else hint
        if line and 0 < width < joined.cell_length:
            lines.append(line)
            joined = hint
        line = joined
    return Content("\n").join([*lines, line])
