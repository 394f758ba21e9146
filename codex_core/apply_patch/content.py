"""Pure text transformation: apply an Update File hunk's chunks to a file's content."""

from __future__ import annotations

from collections.abc import Sequence

from codex_core.apply_patch.errors import ApplyPatchError
from codex_core.apply_patch.model import UpdateChunk
from codex_core.apply_patch.seek import NormalisedLines, seek_sequence

_HINT = "re-read the file and base the patch on its current content"


def uses_crlf(text: str) -> bool:
    """True when every line break in `text` is `\\r\\n` (and there is at least one)."""
    newlines = text.count("\n")
    return newlines > 0 and text.count("\r\n") == newlines


def apply_chunks(original: str, chunks: Sequence[UpdateChunk], display_path: str) -> str:
    """The new content of a file after applying `chunks` in order.

    Chunks are located with `seek_sequence`, each searching after the previous one; an
    `@@ context` line moves the cursor past the first matching line. A chunk without
    removed or context lines is inserted after its `@@ context` line, or appended at the end
    of the file when it has none. The result always ends with a line break; a CRLF file
    keeps CRLF line breaks.

    Args:
        original: the file's current text.
        chunks: the hunk's chunks, in file order.
        display_path: the path as written in the patch, for error messages.

    Raises:
        ApplyPatchError: a context line or a chunk's lines were not found.
    """
    separator = "\r\n" if uses_crlf(original) else "\n"
    lines = original.split(separator)
    if lines[-1] == "":
        lines.pop()
    replacements: list[tuple[int, int, list[str]]] = []
    cursor = 0
    cache: NormalisedLines = {}  # `lines` does not change while chunks are located
    for chunk in chunks:
        if chunk.context is not None:
            found_context = seek_sequence(lines, [chunk.context], cursor, cache=cache)
            if found_context is None:
                raise ApplyPatchError(
                    f"Failed to find context '{chunk.context}' in {display_path} "
                    f"(the '@@' line at patch line {chunk.patch_line}); use a line that "
                    f"occurs in the file after the previous change, or {_HINT}"
                )
            cursor = found_context + 1
        if not chunk.old_lines:
            if chunk.context is not None:
                at = cursor
            elif lines and lines[-1] == "":
                at = len(lines) - 1  # keep a trailing blank line last
            else:
                at = len(lines)
            replacements.append((at, 0, list(chunk.new_lines)))
            continue
        pattern = list(chunk.old_lines)
        replacement = list(chunk.new_lines)
        found = seek_sequence(lines, pattern, cursor, chunk.end_of_file, cache)
        if found is None and pattern[-1] == "":
            # A trailing empty line often stands for the file's final line break.
            pattern.pop()
            if replacement and replacement[-1] == "":
                replacement.pop()
            found = seek_sequence(lines, pattern, cursor, chunk.end_of_file, cache)
        if found is None:
            raise ApplyPatchError(_not_found_message(lines, chunk, cursor, display_path))
        replacements.append((found, len(pattern), replacement))
        cursor = found + len(pattern)
    replacements.sort(key=lambda item: item[0])
    for start, length, new in reversed(replacements):
        lines[start : start + length] = new
    lines.append("")
    return separator.join(lines)


def _not_found_message(
    lines: Sequence[str], chunk: UpdateChunk, cursor: int, display_path: str
) -> str:
    """Name the first line of the chunk that cannot be matched in sequence."""
    old = chunk.old_lines
    matched = 0
    while matched < len(old) and seek_sequence(lines, old[: matched + 1], cursor) is not None:
        matched += 1
    missing = old[min(matched, len(old) - 1)]
    where = f"after the '@@ {chunk.context}' line" if chunk.context is not None else "in the file"
    if cursor and chunk.context is None:
        where = "after the previous change"
    if matched == len(old):
        detail = f"its {len(old)} expected lines were not found in order"
    elif matched == 0:
        detail = f"line '{missing}' does not occur {where}"
    else:
        detail = (
            f"line {matched + 1} of {len(old)}, '{missing}', does not follow the "
            f"{matched} line(s) before it {where}"
        )
    return (
        f"Failed to find expected lines in {display_path} for the change at patch line "
        f"{chunk.patch_line}: {detail}; {_HINT}"
    )
