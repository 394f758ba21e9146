"""Unified diff hunks between two texts, with git's `\\ No newline at end of file` markers."""

from __future__ import annotations

NO_NEWLINE_MARKER = "\\ No newline at end of file"


def split_keep_newlines(text: str) -> list[str]:
    """`text` cut after every `\\n` only (not at `\\r` or other Unicode line breaks)."""
    if not text:
        return []
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _range(start: int, length: int) -> str:
    """A hunk-header range as GNU diff writes it (`3`, `3,4`, or `2,0` when empty)."""
    first = start + 1
    if length == 1:
        return str(first)
    if length == 0:
        first -= 1
    return f"{first},{length}"


def _emit(out: list[str], prefix: str, line: str) -> None:
    if line.endswith("\n"):
        out.append(prefix + line)
    else:
        out.append(prefix + line + "\n")
        out.append(NO_NEWLINE_MARKER + "\n")


def unified_hunks(old: str, new: str, context: int = 3) -> str:
    """The `@@ … @@` hunks turning `old` into `new` (no `---`/`+++` headers).

    Args:
        old: the original text.
        new: the changed text.
        context: unchanged lines shown around each change.

    Returns:
        The hunks, each line ending in a newline; "" when the texts are equal.
    """
    a = split_keep_newlines(old)
    b = split_keep_newlines(new)
    out: list[str] = []
    import difflib  # on first diff, not when the session loads

    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        a_start, a_end = group[0][1], group[-1][2]
        b_start, b_end = group[0][3], group[-1][4]
        out.append(
            f"@@ -{_range(a_start, a_end - a_start)} +{_range(b_start, b_end - b_start)} @@\n"
        )
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                for line in a[i1:i2]:
                    _emit(out, " ", line)
                continue
            for line in a[i1:i2]:
                _emit(out, "-", line)
            for line in b[j1:j2]:
                _emit(out, "+", line)
    return "".join(out)
