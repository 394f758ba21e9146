"""A pure, incremental, bounded Server-Sent Events decoder shared by both wire APIs."""

from __future__ import annotations

import codecs
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

# The largest line or event (its `data:` lines joined) accepted, in characters. Real
# responses stay far below it: a `response.completed` repeating a long answer with a
# generated image is a few MiB. The Rust CLI has no limit; without one a misbehaving server
# can grow codex's memory without bound.
MAX_EVENT_CHARS = 16 * 1024 * 1024


# Patterns compile on first use: not on the way to the first model request.
@functools.cache
def _line_break() -> re.Pattern[str]:
    return re.compile(r"\r\n?|\n")


class SseTooLarge(ValueError):
    """A line or an event of the stream is longer than the decoder's limit."""

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(f"an SSE {what} is longer than {limit} characters")
        self.what = what
        self.limit = limit


@dataclass(frozen=True)
class SseEvent:
    """One dispatched SSE event: its `event:` name (None when absent), joined data and id."""

    event: str | None
    data: str
    id: str | None = None


class SseDecoder:
    """Turns arbitrary byte chunks into SSE events, following the WHATWG parsing rules.

    Lines may end in `\\r\\n`, `\\n` or `\\r` and may be split anywhere, even inside a UTF-8
    sequence or between `\\r` and `\\n`. Comment lines (starting with `:`) and unknown fields
    are skipped; several `data:` lines are joined with newlines. Work and memory are linear
    in the input: each character is scanned once, and a line or event longer than
    `max_chars` raises `SseTooLarge` as soon as it crosses the limit.
    """

    def __init__(self, max_chars: int = MAX_EVENT_CHARS) -> None:
        self._max = max_chars
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._partial: list[str] = []
        self._partial_len = 0
        self._skip_lf = False
        self._at_start = True
        self._event: str | None = None
        self._data: list[str] = []
        self._data_len = 0
        self._id: str | None = None
        self._last_id: str | None = None

    def feed(self, chunk: bytes) -> list[SseEvent]:
        """Decode one chunk of the body and return the events it completed.

        Raises:
            SseTooLarge: A line or event exceeds the limit.
        """
        return self._feed_text(self._utf8.decode(chunk))

    def finish(self) -> list[SseEvent]:
        """Signal end of stream: dispatch an event whose lines ended but lacked the blank line.

        An unterminated last line is dropped: a stream cut mid-line must not yield half an event.
        """
        events = self._feed_text(self._utf8.decode(b"", final=True))
        self._partial = []
        self._partial_len = 0
        if self._data:
            events.append(self._dispatch_pending())
        return events

    def _feed_text(self, text: str) -> list[SseEvent]:
        if self._at_start and text:
            self._at_start = False
            text = text.removeprefix("\ufeff")
        if self._skip_lf and text:
            self._skip_lf = False
            if text[0] == "\n":
                text = text[1:]
        events: list[SseEvent] = []
        start = 0
        for match in _line_break().finditer(text):
            piece = text[start : match.start()]
            if self._partial:
                self._grow(len(piece))
                piece = "".join(self._partial) + piece
                self._partial = []
                self._partial_len = 0
            elif len(piece) > self._max:
                raise SseTooLarge("line", self._max)
            event = self._line(piece)
            if event is not None:
                events.append(event)
            start = match.end()
            if match.group() == "\r" and start == len(text):
                self._skip_lf = True  # the \n (if any) arrives with the next chunk
        if start < len(text):
            rest = text[start:]
            self._grow(len(rest))
            self._partial.append(rest)
        return events

    def _grow(self, extra: int) -> None:
        self._partial_len += extra
        if self._partial_len > self._max:
            raise SseTooLarge("line", self._max)

    def _line(self, line: str) -> SseEvent | None:
        if not line:
            if self._data:
                return self._dispatch_pending()
            self._reset()
            return None
        if line.startswith(":"):
            return None
        field, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._event = value
        elif field == "data":
            self._data_len += len(value) + 1
            if self._data_len > self._max + 1:
                raise SseTooLarge("event", self._max)
            self._data.append(value)
        elif field == "id" and "\0" not in value:
            self._id = value
        return None

    def _reset(self) -> None:
        self._event = None
        self._data = []
        self._data_len = 0

    def _dispatch_pending(self) -> SseEvent:
        if self._id is not None:
            self._last_id = self._id
            self._id = None
        event = SseEvent(event=self._event or None, data="\n".join(self._data), id=self._last_id)
        self._reset()
        return event


def decode_all(chunks: Iterable[bytes], max_chars: int = MAX_EVENT_CHARS) -> list[SseEvent]:
    """Decode a whole body given as chunks (handy for tests and non-streaming callers)."""
    decoder = SseDecoder(max_chars)
    events: list[SseEvent] = []
    for chunk in chunks:
        events.extend(decoder.feed(chunk))
    events.extend(decoder.finish())
    return events
