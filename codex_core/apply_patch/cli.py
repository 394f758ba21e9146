"""The `apply_patch` command: the console script started under the name apply_patch."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from codex_core.apply_patch.apply import apply_hunks
from codex_core.apply_patch.errors import ApplyPatchError
from codex_core.apply_patch.parser import parse_patch
from codex_core.apply_patch.pins import HunkPins, decode_pins

# How codex runs the command: the first line of stdin pins every hunk (see `pins`).
PINNED_FLAG = "--pinned"

USAGE = (
    "Usage: apply_patch 'PATCH'  (or pass the patch on stdin); the patch starts with "
    "'*** Begin Patch' and ends with '*** End Patch'"
)


def main(argv: list[str]) -> int:
    """Apply the patch given as the single argument (or on stdin) under the current directory.

    With `--pinned` (how codex runs it) stdin holds one line of pins, fixed when the
    patch was checked, then the patch.

    Args:
        argv: the arguments after the program name.

    Returns:
        0 on success (summary on stdout), 1 when the patch fails (message on stderr),
        2 on a usage error.
    """
    pinned = argv == [PINNED_FLAG]
    if pinned:
        argv = []
    if len(argv) > 1:
        _write(sys.stderr, f"apply_patch takes exactly one argument, got {len(argv)}. {USAGE}\n")
        return 2
    if argv:
        patch = argv[0]
    else:
        try:
            # Bytes, decoded here: the patch must not depend on the caller's locale.
            raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else None
            patch = sys.stdin.read() if raw is None else raw.decode("utf-8", "surrogateescape")
        except (OSError, UnicodeDecodeError) as err:
            _write(sys.stderr, f"apply_patch could not read the patch from stdin: {err}\n")
            return 2
        if not patch.strip():
            _write(sys.stderr, f"apply_patch received no patch. {USAGE}\n")
            return 2
    try:
        pins: list[HunkPins] | None = None
        line = ""
        if pinned:
            line, _, patch = patch.partition("\n")
        parsed = parse_patch(patch)
        if pinned:
            pins = decode_pins(line, len(parsed.hunks))
        result = apply_hunks(parsed, Path.cwd(), pins)
    except ApplyPatchError as err:
        _write(sys.stderr, f"{err}\n")
        return 1
    _write(sys.stdout, result.summary())
    return 0


def _write(stream: TextIO, text: str) -> None:
    """Write `text` even when it holds characters the stream's encoding cannot show."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(text)
        stream.flush()
        return
    stream.flush()
    buffer.write(text.encode(stream.encoding or "utf-8", errors="backslashreplace"))
    buffer.flush()
