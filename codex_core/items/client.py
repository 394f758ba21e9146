"""The projection as an interactive client renders it (the TUI): the same notices, plus
what only a client that runs commands live and sends its own small ops needs.

`ClientProjection` yields every `Notice` of the one projection, and:

- `ItemBegan` when an item its approval request started begins to run (once allowed), so a
  client shows a command as it starts (an allowed `write_stdin` or MCP call never begins
  this way: the first types into a running command, the second is its own item);
- the answers to the ops only an interactive client sends (`/mcp`, `/ps`, `/stop`, the
  composer's history), as `McpServersListed`, `BackgroundTerminalsListed`,
  `BackgroundTerminalsStopped` and `HistoryEntryFetched`;
- `history`: a resumed session's past events (`ThreadStarted.initial_messages`) projected
  on their own, under ids of their own.

The TUI, an app-server client, gets these notices straight from the wire
(`codex_tui.app.wire_items`), not from events: its thread starts as `ThreadOpened`, whose
`past` holds a resumed thread's turns as notices already.

Frontends that never send those ops nor show a call until it ends (`exec`, the app-server,
ACP, the rollout) use `Projection` and never see these notices.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias

import codex_core.items.kinds as k
import codex_core.items.notices as n
from codex_core import protocol as ev
from codex_core.items.projection import NewId, Projection

HISTORY_TURN = "history"
"""The turn a resumed session's past is projected under."""


@dataclass(frozen=True)
class ItemBegan:
    """An item started by its approval request (`ItemStarted.by == "approval"`) began to
    run once allowed; `item` is as its begin describes it. At most once per such start."""

    turn: str
    item: k.ToolItem


@dataclass(frozen=True)
class McpServersListed:
    """Answer to `list_mcp_tools` (`/mcp`): every enabled MCP server, its state and tools."""

    turn: str
    servers: tuple[ev.McpServerStatus, ...]


@dataclass(frozen=True)
class BackgroundTerminalsListed:
    """Answer to `list_background_terminals` (`/ps`): the running processes, oldest first."""

    turn: str
    terminals: tuple[ev.BackgroundTerminal, ...]


@dataclass(frozen=True)
class BackgroundTerminalsStopped:
    """Answer to `/stop`: the processes killed, or the one asked for that was not running."""

    turn: str
    stopped: tuple[ev.BackgroundTerminal, ...]
    unknown_process_id: str | None = None


@dataclass(frozen=True)
class HistoryEntryFetched:
    """Answer to `get_history_entry_request`: the composer's persistent history entry."""

    turn: str
    offset: int
    log_id: int
    entry: str | None


@dataclass(frozen=True)
class ThreadOpened(n.ThreadStarted):
    """`ThreadStarted` as an app-server client receives it: a resumed thread's past comes
    as its turns' items, here already as notices (under `HISTORY_TURN`), not as events."""

    past: tuple[ClientNotice, ...] = ()


ClientOnlyNotice: TypeAlias = (
    ItemBegan
    | McpServersListed
    | BackgroundTerminalsListed
    | BackgroundTerminalsStopped
    | HistoryEntryFetched
)
"""What `ClientProjection` adds to the one projection's notices."""

ClientNotice: TypeAlias = n.Notice | ClientOnlyNotice
"""Everything `ClientProjection` yields."""


class ClientProjection(Projection):
    """`Projection` for an interactive client; `feed_client` is its feed."""

    def __init__(self, new_id: NewId | None = None) -> None:
        super().__init__(new_id)
        self._began: list[ItemBegan] = []

    def feed_client(self, turn: str, msg: ev.EventMsg) -> list[ClientNotice]:
        """The notices for `msg` of the submission `turn` (see the module docstring)."""
        match msg:
            case ev.McpListToolsResponseEvent():
                return [McpServersListed(turn, tuple(msg.servers))]
            case ev.ListBackgroundTerminalsResponseEvent():
                return [BackgroundTerminalsListed(turn, tuple(msg.terminals))]
            case ev.BackgroundTerminalsStoppedEvent():
                stopped = tuple(msg.stopped)
                return [BackgroundTerminalsStopped(turn, stopped, msg.unknown_process_id)]
            case ev.GetHistoryEntryResponseEvent():
                return [HistoryEntryFetched(turn, msg.offset, msg.log_id, msg.entry)]
            case _:
                pass
        out: list[ClientNotice] = [*self.feed_msg(turn, msg)]
        if self._began:
            out += self._began
            self._began = []
        return out

    def _began_once_allowed(self, turn: str, item: k.ToolItem) -> None:
        self._began.append(ItemBegan(turn, item))


def history(
    started: n.ThreadStarted, prepare: Callable[[ev.EventMsg], ev.EventMsg] | None = None
) -> list[ClientNotice]:
    """A resumed session's past: `started.initial_messages` projected as a client sees them,
    under `HISTORY_TURN`, with ids (`history-agentMessage-1`, …) no live item takes.
    `prepare` is applied to each event first (a terminal makes its text printable). A
    `ThreadOpened` carries its past as notices already: those."""
    if isinstance(started, ThreadOpened):
        return list(started.past)
    counter = itertools.count(1)
    projection = ClientProjection(lambda kind, _turn: f"history-{kind}-{next(counter)}")
    out: list[ClientNotice] = []
    for msg in _past_events(started.initial_messages):
        out += projection.feed_client(HISTORY_TURN, prepare(msg) if prepare else msg)
    return out


def _past_events(raw: Iterable[dict[str, Any]]) -> Iterable[ev.EventMsg]:
    for entry in raw:
        msg = ev.parse_event_msg(entry)
        if msg is not None and not isinstance(msg, ev.SessionConfiguredEvent):
            yield msg
