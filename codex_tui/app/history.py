"""Up/Down navigation through this session's messages and the persistent `history.jsonl`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Show:
    """Put this text in the composer."""

    text: str


@dataclass(frozen=True)
class Fetch:
    """Ask the core for persistent entry `offset` of log `log_id`."""

    offset: int
    log_id: int


Step = Show | Fetch | None


class ComposerHistory:
    """Newest-first navigation: local messages first, then persistent entries (fetched lazily)."""

    def __init__(self) -> None:
        self.local: list[str] = []
        self.log_id = 0
        self.persistent_count = 0
        self._index: int | None = None
        self._draft = ""
        self._cache: dict[int, str] = {}
        self._waiting: int | None = None

    @property
    def browsing(self) -> bool:
        """Whether Up/Down currently move through history."""
        return self._index is not None

    def configure(self, log_id: int, count: int) -> None:
        """Use the persistent log announced by `session_configured`."""
        self.log_id, self.persistent_count = log_id, count
        self._cache.clear()

    def record(self, text: str) -> None:
        """Remember a submitted message and leave browsing."""
        if text.strip() and (not self.local or self.local[-1] != text):
            self.local.append(text)
        self.reset()

    def reset(self) -> None:
        """Leave browsing."""
        self._index = None
        self._waiting = None

    def previous(self, current: str) -> Step:
        """One entry older than the one shown."""
        index = 0 if self._index is None else self._index + 1
        if index >= len(self.local) + self.persistent_count:
            return None
        if self._index is None:
            self._draft = current
        self._index = index
        return self._entry(index)

    def next(self) -> Step:
        """One entry newer; past the newest, the draft comes back."""
        if self._index is None:
            return None
        if self._index == 0:
            self.reset()
            return Show(self._draft)
        self._index -= 1
        return self._entry(self._index)

    def on_entry(self, offset: int, log_id: int, entry: str | None) -> Step:
        """A fetched persistent entry; returns Show if it is the one being waited for."""
        if log_id != self.log_id:
            return None
        if entry is not None:
            self._cache[offset] = entry
        if self._waiting != offset:
            return None
        self._waiting = None
        return Show(entry if entry is not None else "")

    def _entry(self, index: int) -> Step:
        if index < len(self.local):
            return Show(self.local[-1 - index])
        offset = self.persistent_count - 1 - (index - len(self.local))
        if offset in self._cache:
            return Show(self._cache[offset])
        self._waiting = offset
        return Fetch(offset, self.log_id)
