"""Parser for the apply_patch format: the strict grammar plus the lenient forms models send.

Grammar (one patch):

    patch   := "*** Begin Patch" NL hunk* "*** End Patch" NL?
    hunk    := add | delete | update
    add     := "*** Add File: " PATH NL ("+" TEXT NL)*
    delete  := "*** Delete File: " PATH NL
    update  := "*** Update File: " PATH NL ("*** Move to: " PATH NL)? chunk+
    chunk   := ("@@" | "@@ " CONTEXT) NL (LINE NL)+ ("*** End of File" NL)?
    LINE    := (" " | "+" | "-") TEXT | ""      (an empty line is an empty context line)

Leniency: surrounding whitespace around the patch, the begin/end markers and hunk headers;
blank lines between chunks; the first chunk of an update may omit its `@@` line; the whole
patch may be wrapped in a heredoc (`<<'EOF'` … `EOF`, also `<<EOF` and `<<"EOF"`).
"""

from __future__ import annotations

import re

from codex_core.apply_patch.errors import PatchParseError
from codex_core.apply_patch.model import AddFile, DeleteFile, Hunk, Patch, UpdateChunk, UpdateFile

BEGIN_PATCH = "*** Begin Patch"
END_PATCH = "*** End Patch"
ADD_FILE = "*** Add File: "
DELETE_FILE = "*** Delete File: "
UPDATE_FILE = "*** Update File: "
MOVE_TO = "*** Move to:"
END_OF_FILE = "*** End of File"
HEREDOC_OPENER = re.compile(r"""<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1""")


def parse_patch(text: str) -> Patch:
    """Parse patch text into hunks, accepting the lenient forms described above.

    Args:
        text: the patch, as a model sent it.

    Returns:
        The parsed patch; it may hold no hunks (applying it then fails).

    Raises:
        PatchParseError: the text does not follow the grammar; the message names the line.
    """
    stripped = text.strip()
    leading = text[: len(text) - len(text.lstrip())].count("\n")
    lines = [line[:-1] if line.endswith("\r") else line for line in stripped.split("\n")]
    start, end = _patch_bounds(lines)
    return _Parser(lines, start, end, leading).parse()


def _patch_bounds(lines: list[str]) -> tuple[int, int]:
    """Index of the begin marker and of the end marker, unwrapping a heredoc if needed."""
    error = _check_markers(lines, 0, len(lines))
    if error is None:
        return 0, len(lines) - 1
    opener = HEREDOC_OPENER.fullmatch(lines[0].strip())
    if (
        opener is not None
        and len(lines) >= 4
        and lines[-1].strip().endswith(opener.group(2))
        and _check_markers(lines, 1, len(lines) - 1) is None
    ):
        return 1, len(lines) - 2
    raise error


def _check_markers(lines: list[str], start: int, stop: int) -> PatchParseError | None:
    if stop - start < 1 or lines[start].strip() != BEGIN_PATCH:
        if stop - start == 1 and not lines[start].strip():
            return PatchParseError(
                "the patch is empty; send text that starts with '*** Begin Patch' "
                "and ends with '*** End Patch'"
            )
        return PatchParseError("the first line of the patch must be '*** Begin Patch'")
    if stop - start < 2 or lines[stop - 1].strip() != END_PATCH:
        return PatchParseError("the last line of the patch must be '*** End Patch'")
    return None


class _Parser:
    """Walks the lines between the begin and end markers, one hunk at a time."""

    def __init__(self, lines: list[str], begin: int, end: int, leading: int) -> None:
        self.lines = lines
        self.begin = begin
        self.end = end
        self.leading = leading

    def line_number(self, index: int) -> int:
        return index + 1 + self.leading

    def parse(self) -> Patch:
        hunks: list[Hunk] = []
        index = self.begin + 1
        while index < self.end:
            hunk, index = self.parse_hunk(index)
            hunks.append(hunk)
        text = "\n".join(self.lines[self.begin : self.end + 1])
        return Patch(hunks=tuple(hunks), text=text)

    def parse_hunk(self, index: int) -> tuple[Hunk, int]:
        header = self.lines[index].strip()
        if header.startswith(ADD_FILE):
            path = self.header_path(header, ADD_FILE, index)
            content: list[str] = []
            index += 1
            while index < self.end and self.lines[index].startswith("+"):
                content.append(self.lines[index][1:] + "\n")
                index += 1
            return AddFile(path=path, content="".join(content)), index
        if header.startswith(DELETE_FILE):
            return DeleteFile(path=self.header_path(header, DELETE_FILE, index)), index + 1
        if header.startswith(UPDATE_FILE):
            return self.parse_update(self.header_path(header, UPDATE_FILE, index), index)
        raise PatchParseError(
            f"'{header}' is not a valid hunk header; expected '*** Add File: PATH', "
            "'*** Delete File: PATH' or '*** Update File: PATH'",
            line_number=self.line_number(index),
        )

    def header_path(self, header: str, marker: str, index: int) -> str:
        path = header[len(marker) :].strip()
        if not path:
            raise PatchParseError(
                f"'{header}' names no file; write the path after the marker",
                line_number=self.line_number(index),
            )
        return path

    def parse_update(self, path: str, header_index: int) -> tuple[UpdateFile, int]:
        index = header_index + 1
        move_path: str | None = None
        if index < self.end and self.lines[index].strip().startswith(MOVE_TO):
            move_path = self.lines[index].strip()[len(MOVE_TO) :].strip()
            if not move_path:
                raise PatchParseError(
                    f"'*** Move to:' for '{path}' names no destination; write the new path "
                    "after the marker",
                    line_number=self.line_number(index),
                )
            index += 1
        chunks: list[UpdateChunk] = []
        while index < self.end:
            line = self.lines[index]
            if not line.strip():
                index += 1  # blank lines may separate chunks
                continue
            if line.startswith("*") or (chunks and line.lstrip().startswith("*")):
                break
            chunk, index = self.parse_chunk(path, index, first=not chunks)
            chunks.append(chunk)
        if not chunks:
            raise PatchParseError(
                f"the update of '{path}' contains no changes; add an '@@' section with "
                "'-' and '+' lines, or drop the hunk",
                line_number=self.line_number(header_index),
            )
        return UpdateFile(path=path, chunks=tuple(chunks), move_path=move_path), index

    def parse_chunk(self, path: str, index: int, *, first: bool) -> tuple[UpdateChunk, int]:
        chunk_start = index
        head = self.lines[index]
        context: str | None = None
        if head.rstrip() == "@@":
            index += 1
        elif head.startswith("@@ "):
            context = head[3:] if head[3:].strip() else None
            index += 1
        elif not first:
            raise PatchParseError(
                f"expected an '@@' line to start the next change to '{path}', got '{head}'",
                line_number=self.line_number(index),
            )
        old: list[str] = []
        new: list[str] = []
        end_of_file = False
        count = 0
        while index < self.end:
            line = self.lines[index]
            if line.rstrip() == END_OF_FILE:
                if count == 0:
                    break
                end_of_file = True
                index += 1
                break
            marker = line[:1]
            if marker == "":
                old.append("")
                new.append("")
            elif marker == " ":
                old.append(line[1:])
                new.append(line[1:])
            elif marker == "+":
                new.append(line[1:])
            elif marker == "-":
                old.append(line[1:])
            elif count == 0:
                raise PatchParseError(
                    f"unexpected line '{line}' in the update of '{path}'; every change line "
                    "must start with ' ' (context), '+' (added) or '-' (removed)",
                    line_number=self.line_number(index),
                )
            else:
                break
            count += 1
            index += 1
        if count == 0:
            raise PatchParseError(
                f"a change to '{path}' has an '@@' line but no lines after it; add ' ', '+' "
                "or '-' lines",
                line_number=self.line_number(chunk_start),
            )
        chunk = UpdateChunk(
            context=context,
            old_lines=tuple(old),
            new_lines=tuple(new),
            end_of_file=end_of_file,
            patch_line=self.line_number(chunk_start),
        )
        return chunk, index
