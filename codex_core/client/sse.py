"""A pure, incremental Server-Sent Events decoder shared by both wire APIs."""

from __future__ import annotations

import codecs
from collections.abc import Iterable
from dataclasses import dataclass


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
    are skipped; several `data:` lines are joined with newlines.
    """

    def __init__(self) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._partial = ""
        self._skip_lf = False
        self._at_start = True
        self._event: str | None = None
        self._data: list[str] = []
        self._id: str | None = None
        self._last_id: str | None = None

    def feed(self, chunk: bytes) -> list[SseEvent]:
        """Decode one chunk of the body and return the events it completed."""
        return self._feed_text(self._utf8.decode(chunk))

    def finish(self) -> list[SseEvent]:
        """Signal end of stream: dispatch an event whose lines ended but lacked the blank line.

        An unterminated last line is dropped: a stream cut mid-line must not yield half an event.
        """
        events = self._feed_text(self._utf8.decode(b"", final=True))
        self._partial = ""
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
        buffer = self._partial + text
        start = 0
        length = len(buffer)
        while True:
            cr = buffer.find("\r", start)
            lf = buffer.find("\n", start)
            if cr < 0 and lf < 0:
                break
            if cr < 0 or (0 <= lf < cr):
                end, next_start = lf, lf + 1
            elif cr + 1 < length:
                end = cr
                next_start = cr + 2 if buffer[cr + 1] == "\n" else cr + 1
            else:
                # A trailing \r: the \n (if any) arrives with the next chunk.
                end, next_start = cr, cr + 1
                self._skip_lf = True
            event = self._line(buffer[start:end])
            if event is not None:
                events.append(event)
            start = next_start
        self._partial = buffer[start:]
        return events

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
            self._data.append(value)
        elif field == "id" and "\0" not in value:
            self._id = value
        return None

    def _reset(self) -> None:
        self._event = None
        self._data = []

    def _dispatch_pending(self) -> SseEvent:
        if self._id is not None:
            self._last_id = self._id
            self._id = None
        event = SseEvent(event=self._event or None, data="\n".join(self._data), id=self._last_id)
        self._reset()
        return event


def decode_all(chunks: Iterable[bytes]) -> list[SseEvent]:
    """Decode a whole body given as chunks (handy for tests and non-streaming callers)."""
    decoder = SseDecoder()
    events: list[SseEvent] = []
    for chunk in chunks:
        events.extend(decoder.feed(chunk))
    events.extend(decoder.finish())
    return events
