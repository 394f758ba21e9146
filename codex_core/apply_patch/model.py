"""Data types of a parsed patch and of the changes it makes."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal


@dataclass(frozen=True)
class UpdateChunk:
    """One `@@` section of an Update File hunk.

    `context` is the text after `@@ ` (it moves the search cursor to just past that line);
    `old_lines` must be found in order after the cursor and are replaced by `new_lines`;
    `end_of_file` anchors `old_lines` at the end of the file. `patch_line` is the 1-based
    line of the patch where the chunk starts, for error messages.
    """

    context: str | None
    old_lines: tuple[str, ...]
    new_lines: tuple[str, ...]
    end_of_file: bool = False
    patch_line: int = 0


@dataclass(frozen=True)
class AddFile:
    """`*** Add File: path` followed by `+` lines; overwrites an existing file."""

    path: str
    content: str


@dataclass(frozen=True)
class DeleteFile:
    """`*** Delete File: path`; the file must exist and be a regular file."""

    path: str


@dataclass(frozen=True)
class UpdateFile:
    """`*** Update File: path`, an optional `*** Move to: dest`, then one or more chunks."""

    path: str
    chunks: tuple[UpdateChunk, ...]
    move_path: str | None = None


Hunk = AddFile | DeleteFile | UpdateFile


@dataclass(frozen=True)
class Patch:
    """A parsed patch: its hunks in order and the patch text without any heredoc wrapper."""

    hunks: tuple[Hunk, ...]
    text: str


ChangeKind = Literal["add", "delete", "update"]


@dataclass(frozen=True)
class FileChangeInfo:
    """What one hunk will do to one file, computed without writing anything.

    `path` is absolute. `content` is the new text for "add" and the current text for
    "delete"; "update" carries `unified_diff` (hunks only, no file headers), `new_content`
    and, for a rename, the absolute `move_path`.
    """

    path: Path
    kind: ChangeKind
    content: str | None = None
    unified_diff: str | None = None
    move_path: Path | None = None
    new_content: str | None = None


@dataclass
class ApplyResult:
    """Paths (as written in the patch) that a successful patch added, modified, deleted."""

    added: list[Path] = field(default_factory=list)
    modified: list[Path] = field(default_factory=list)
    deleted: list[Path] = field(default_factory=list)

    def summary(self) -> str:
        """The `Success. Updated the following files:` report, one `A|M|D path` line each."""
        lines = ["Success. Updated the following files:"]
        lines += [f"A {p}" for p in self.added]
        lines += [f"M {p}" for p in self.modified]
        lines += [f"D {p}" for p in self.deleted]
        return "\n".join(lines) + "\n"
