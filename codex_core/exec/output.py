"""Bounded output buffers and the head/tail digest of a command's output the model receives."""

from __future__ import annotations

from collections import deque

from codex_core.exec.params import ExecResult

STREAM_CAP_CHARS = 1024 * 1024


class CappedText:
    """Text that keeps its first and last halves of `limit` characters and counts the rest."""

    def __init__(self, limit: int = STREAM_CAP_CHARS) -> None:
        """An empty buffer holding at most about `limit` characters."""
        self._head_cap = limit // 2
        self._tail_cap = limit - self._head_cap
        self._head: list[str] = []
        self._head_len = 0
        self._tail: deque[str] = deque()
        self._tail_len = 0
        self.dropped = 0

    def append(self, text: str) -> None:
        """Add `text`; once full, the oldest characters after the head are dropped."""
        room = self._head_cap - self._head_len
        if room > 0 and text:
            self._head.append(text[:room])
            self._head_len += min(room, len(text))
            text = text[room:]
        if not text:
            return
        self._tail.append(text)
        self._tail_len += len(text)
        while self._tail_len > self._tail_cap:
            excess = self._tail_len - self._tail_cap
            first = self._tail[0]
            if len(first) <= excess:
                self._tail.popleft()
                cut = len(first)
            else:
                self._tail[0] = first[excess:]
                cut = excess
            self._tail_len -= cut
            self.dropped += cut

    def text(self) -> str:
        """The kept text, with a notice where the middle was dropped."""
        head = "".join(self._head)
        tail = "".join(self._tail)
        if not self.dropped:
            return head + tail
        return f"{head}\n[... {self.dropped} characters omitted ...]\n{tail}"


def _take_lines(lines: list[str], count: int, budget: int) -> tuple[list[str], int]:
    """Up to `count` lines from the front whose UTF-8 size fits `budget`; returns (lines, bytes)."""
    kept: list[str] = []
    used = 0
    for line in lines[:count]:
        size = len(line.encode("utf-8"))
        if used + size > budget:
            break
        kept.append(line)
        used += size
    return kept, used


def _clip_bytes(text: str, budget: int, *, from_end: bool) -> str:
    data = text.encode("utf-8")
    part = data[-budget:] if from_end else data[:budget]
    return part.decode("utf-8", errors="ignore")


def truncate_middle(text: str, max_bytes: int, max_lines: int) -> str:
    """Keep the head and tail of `text` within `max_bytes` and `max_lines`.

    The omitted middle is replaced by a `[... N lines omitted ...]` line, and the total
    line count is stated first so the model knows how much it did not see.
    """
    lines = text.splitlines(keepends=True)
    if len(lines) <= max_lines and len(text.encode("utf-8")) <= max_bytes:
        return text
    head_n = max_lines // 2
    tail_n = max_lines - head_n
    head, used = _take_lines(lines, head_n, max_bytes // 2)
    rest = lines[len(head) :]
    tail_rev, _ = _take_lines(rest[::-1], tail_n, max_bytes - used)
    tail = tail_rev[::-1]
    omitted = len(lines) - len(head) - len(tail)
    head_text, tail_text = "".join(head), "".join(tail)
    if not head and not tail:
        # A few enormous lines: keep raw bytes from both ends instead.
        head_text = _clip_bytes(text, max_bytes // 2, from_end=False) + "\n"
        tail_text = _clip_bytes(text, max_bytes - max_bytes // 2, from_end=True)
    notice = f"[... {omitted} lines omitted ...]\n" if omitted else ""
    return f"Total output lines: {len(lines)}\n\n{head_text}{notice}{tail_text}"


def format_output_for_model(
    result: ExecResult, max_bytes: int = 10 * 1024, max_lines: int = 256
) -> str:
    """The command output the model gets: stdout and stderr interleaved, head and tail kept."""
    return truncate_middle(result.aggregated_output, max_bytes, max_lines)
