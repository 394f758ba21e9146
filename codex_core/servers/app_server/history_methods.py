"""The message history's methods (codex extensions): `history/metadata/read`,
`history/entry/read` and `history/append`, the TUI's ↑ recall.

Apart from the TUI's other methods (`tui_methods`): a TUI launched with a prompt asks for the
history's metadata just before its first `turn/start`, so what answers it is on the way to
the first model request — these three handlers and their small models, nothing else.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from codex_core.lite import Model as BaseModel
from codex_core.servers.app_server.context import ServerContext
from codex_core.servers.app_server.model_methods import EmptyResponse, ThreadIdParams
from codex_core.servers.app_server.wire import ParamsModel, WireModel, invalid_request


class HistoryEntryReadParams(ParamsModel):
    """`history/entry/read`: one line of the message history (↑ in the composer)."""

    logId: int
    offset: int


class HistoryEntryReadResponse(WireModel):
    """The entry's text (None past the end, or for another history file)."""

    entry: str | None = None


class HistoryAppendParams(ParamsModel):
    """`history/append`: record a message the user sent in the thread's history file."""

    threadId: str
    text: str


class HistoryMetadata(WireModel):
    """Where the thread's ↑ recall reads from (a `thread/start`/`resume` extension)."""

    logId: int
    entryCount: int


async def history_metadata(server: ServerContext, params: ThreadIdParams) -> HistoryMetadata:
    """Which history file the thread's ↑ recall reads, and how many entries it holds."""
    log_id, count = server.thread(params.threadId).session.storage.history_metadata()
    return HistoryMetadata(logId=log_id, entryCount=count)


async def history_entry_read(
    server: ServerContext, params: HistoryEntryReadParams
) -> HistoryEntryReadResponse:
    """One entry of the history file (None past its end)."""
    loaded = next(iter(server.threads.values()), None)
    if loaded is None:
        raise invalid_request("no thread is loaded")
    entry = loaded.session.storage.lookup_history(params.logId, params.offset)
    return HistoryEntryReadResponse(entry=entry)


async def history_append(server: ServerContext, params: HistoryAppendParams) -> EmptyResponse:
    """Record a message the user sent (as the config's `history` settings allow)."""
    loaded = server.thread(params.threadId)
    loaded.session.storage.append_history(loaded.id, params.text)
    return EmptyResponse()


Handler = Callable[[ServerContext, Any], Awaitable[BaseModel]]
HISTORY_METHODS: dict[str, tuple[type[ParamsModel], Handler]] = {
    "history/metadata/read": (ThreadIdParams, history_metadata),
    "history/entry/read": (HistoryEntryReadParams, history_entry_read),
    "history/append": (HistoryAppendParams, history_append),
}
"""The history's methods, in the order the table lists them."""
