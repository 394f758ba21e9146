"""The request table: method name → (params model, handler), the rarely called methods'
modules imported on their first call, not before the server answers its first request."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codex_core.lite import Model as BaseModel
    from codex_core.servers.app_server.context import ServerContext
    from codex_core.servers.app_server.wire import ParamsModel

Handler = Callable[["ServerContext", Any], Awaitable["BaseModel"]]
Entry = tuple[type["ParamsModel"], Handler]
Loader = Callable[[], dict[str, Entry]]
"""Imports a group of methods' modules; returns their entries."""


class MethodTable(Mapping[str, Entry]):
    """A read-only mapping in the given order; an entry given as a `Loader` is loaded when
    it is first looked up (with the rest of its group)."""

    def __init__(self, entries: Iterable[tuple[str, Entry | Loader]]) -> None:
        self._entries: dict[str, Entry | Loader] = dict(entries)

    def __getitem__(self, method: str) -> Entry:
        entry = self._entries[method]
        if callable(entry):
            loaded = entry()
            self._entries.update(loaded)  # the group's methods keep their places
            return loaded[method]
        return entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def unloaded(self) -> Iterator[tuple[str, Entry | Loader]]:
        """The entries as given, nothing loaded (to build a larger table from)."""
        return iter(list(self._entries.items()))
