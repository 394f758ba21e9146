"""The text a unified exec call returns to the model, with a token-budgeted head/tail cut."""

from __future__ import annotations

import math
import secrets

BYTES_PER_TOKEN = 4
DEFAULT_MAX_OUTPUT_TOKENS = 10_000


def approx_tokens(text: str) -> int:
    """Tokens as the Codex CLI estimates them: UTF-8 bytes / 4, rounded up."""
    return math.ceil(len(text.encode("utf-8")) / BYTES_PER_TOKEN)


def _cut(data: bytes, size: int, *, from_end: bool) -> str:
    part = data[len(data) - size :] if from_end else data[:size]
    return part.decode("utf-8", errors="ignore")


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    """`text` if it fits `max_tokens`, else its head and tail around a marker of what was cut.

    The result starts with a warning naming the original size and the line count, so the
    model knows it saw only part of the output.
    """
    original = approx_tokens(text)
    if original <= max_tokens:
        return text
    data = text.encode("utf-8")
    budget = max(0, max_tokens) * BYTES_PER_TOKEN
    head = _cut(data, budget // 2, from_end=False)
    tail = _cut(data, budget - budget // 2, from_end=True)
    removed = len(data) - len(head.encode("utf-8")) - len(tail.encode("utf-8"))
    lines = len(text.splitlines())
    return (
        f"Warning: truncated output (original token count: {original})\n"
        f"Total output lines: {lines}\n\n"
        f"{head}…{math.ceil(removed / BYTES_PER_TOKEN)} tokens truncated…{tail}"
    )


def chunk_id() -> str:
    """A short random id for one chunk of output."""
    return secrets.token_hex(3)


def format_response(
    output: str,
    wall_time_s: float,
    *,
    exit_code: int | None,
    session_id: int | None,
    max_tokens: int,
) -> str:
    """The tool output: chunk id, wall time, exit code or live session id, token count, output."""
    status = (
        f"Process exited with code {exit_code}"
        if exit_code is not None
        else f"Process running with session ID {session_id}"
    )
    return (
        f"Chunk ID: {chunk_id()}\n"
        f"Wall time: {wall_time_s:.4f} seconds\n"
        f"{status}\n"
        f"Original token count: {approx_tokens(output)}\n"
        f"Output:\n{truncate_to_tokens(output, max_tokens)}"
    )
