"""Verify a patch against the disk (no writes) and apply it hunk by hunk."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from codex_core.apply_patch.content import apply_chunks
from codex_core.apply_patch.errors import ApplyPatchError
from codex_core.apply_patch.model import (
    AddFile,
    ApplyResult,
    DeleteFile,
    FileChangeInfo,
    Patch,
    UpdateFile,
)
from codex_core.apply_patch.nofollow import LinkInPath, remove_file, write_file
from codex_core.apply_patch.parser import parse_patch
from codex_core.apply_patch.pins import HunkPins, pin_patch
from codex_core.apply_patch.udiff import unified_hunks

logger = logging.getLogger(__name__)

NO_HUNKS_MESSAGE = (
    "No files were modified: the patch has no hunks; add an '*** Add File:', "
    "'*** Delete File:' or '*** Update File:' section"
)


def resolve_path(cwd: Path, path: str) -> Path:
    """`path` from a patch, made absolute against `cwd` and normalised lexically."""
    return Path(os.path.normpath(os.path.join(cwd, path)))


def _describe(err: OSError) -> str:
    if isinstance(err, LinkInPath):
        return (
            f"{err.path} became a symbolic link after the patch was checked; apply_patch "
            "does not follow it, so nothing was written there"
        )
    if isinstance(err, FileNotFoundError):
        return "the file does not exist"
    if isinstance(err, IsADirectoryError):
        return "it is a directory"
    if isinstance(err, NotADirectoryError):
        return "a parent of it is not a directory"
    if isinstance(err, PermissionError):
        return "permission denied"
    return err.strerror or str(err)


def read_text(path: Path, display: str, *, purpose: str) -> str:
    """The UTF-8 text of `path`, or an ApplyPatchError naming `display` and `purpose`."""
    try:
        if path.is_dir():
            raise IsADirectoryError(path)
        data = path.read_bytes()
    except OSError as err:
        raise ApplyPatchError(f"Failed to read {display} to {purpose}: {_describe(err)}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ApplyPatchError(
            f"Failed to read {display} to {purpose}: it is not UTF-8 text, and apply_patch "
            "edits text files only"
        ) from None


class _Overlay:
    """The disk as earlier hunks of the same patch would leave it, for verification."""

    def __init__(self) -> None:
        self.files: dict[Path, str | None] = {}

    def read(self, path: Path, display: str, *, purpose: str) -> str:
        if path in self.files:
            text = self.files[path]
            if text is None:
                raise ApplyPatchError(
                    f"Failed to read {display} to {purpose}: an earlier hunk of this patch "
                    "deletes it"
                )
            return text
        return read_text(path, display, purpose=purpose)

    def require_file(self, path: Path, display: str) -> str:
        if path in self.files:
            return self.read(path, display, purpose="delete it")
        if path.is_dir():
            raise ApplyPatchError(
                f"Failed to delete {display}: it is a directory, and apply_patch deletes files only"
            )
        if not path.exists():
            raise ApplyPatchError(f"Failed to delete {display}: the file does not exist")
        try:
            return path.read_bytes().decode("utf-8", errors="replace")
        except OSError as err:
            raise ApplyPatchError(
                f"Failed to read {display} to delete it: {_describe(err)}"
            ) from None


def compute_changes(patch: Patch, cwd: Path) -> list[FileChangeInfo]:
    """What each hunk of `patch` would do, read from the disk under `cwd`; writes nothing.

    Later hunks see the effect of earlier ones (a file added then updated works).

    Args:
        patch: a parsed patch.
        cwd: the directory relative paths in the patch are resolved against.

    Returns:
        One FileChangeInfo per hunk, in patch order, with absolute paths.

    Raises:
        ApplyPatchError: the patch is empty, or a hunk cannot apply (missing file or lines).
    """
    if not patch.hunks:
        raise ApplyPatchError(NO_HUNKS_MESSAGE)
    overlay = _Overlay()
    changes: list[FileChangeInfo] = []
    for hunk in patch.hunks:
        path = resolve_path(cwd, hunk.path)
        if isinstance(hunk, AddFile):
            if path not in overlay.files and path.is_dir():
                raise ApplyPatchError(f"Failed to write {hunk.path}: it is a directory")
            overlay.files[path] = hunk.content
            changes.append(FileChangeInfo(path=path, kind="add", content=hunk.content))
        elif isinstance(hunk, DeleteFile):
            original = overlay.require_file(path, hunk.path)
            overlay.files[path] = None
            changes.append(FileChangeInfo(path=path, kind="delete", content=original))
        else:
            original = overlay.read(path, hunk.path, purpose="update it")
            new = apply_chunks(original, hunk.chunks, hunk.path)
            move = resolve_path(cwd, hunk.move_path) if hunk.move_path is not None else None
            if move is not None and move != path:
                overlay.files[path] = None
            overlay.files[move or path] = new
            changes.append(
                FileChangeInfo(
                    path=path,
                    kind="update",
                    unified_diff=unified_hunks(original, new, context=1),
                    move_path=move,
                    new_content=new,
                )
            )
    return changes


def apply_patch(text: str, cwd: Path, pins: list[HunkPins] | None = None) -> ApplyResult:
    """Parse `text` and apply its hunks in order to the files under `cwd`.

    Hunks apply one after another: when one fails, the earlier ones stay applied and the
    error is raised; nothing is written when the patch does not parse. Every write goes to
    the hunk's pinned path (`codex_core.apply_patch.pins`) without following a link.

    Args:
        text: the patch text (lenient forms accepted).
        cwd: the directory relative paths in the patch are resolved against.
        pins: where each hunk writes and removes, fixed when the patch was checked;
            pinned now (before the first write) when omitted.

    Returns:
        The added, modified and deleted paths as written in the patch.

    Raises:
        ApplyPatchError: parsing failed, the patch is empty, or a hunk could not apply.
    """
    return apply_hunks(parse_patch(text), cwd, pins)


def apply_hunks(patch: Patch, cwd: Path, pins: list[HunkPins] | None = None) -> ApplyResult:
    """Apply an already parsed patch; see `apply_patch`."""
    if not patch.hunks:
        raise ApplyPatchError(NO_HUNKS_MESSAGE)
    if pins is None:
        pins = pin_patch(patch, cwd)
    if len(pins) != len(patch.hunks):
        raise ApplyPatchError("apply_patch: the pins do not match the patch's hunks")
    result = ApplyResult()
    for hunk, pin in zip(patch.hunks, pins, strict=True):
        path = resolve_path(cwd, hunk.path)
        if isinstance(hunk, AddFile):
            _write(pin, hunk.content, hunk.path)
            result.added.append(Path(hunk.path))
        elif isinstance(hunk, DeleteFile):
            _delete(pin, hunk.path)
            result.deleted.append(Path(hunk.path))
        else:
            _update(hunk, path, pin, result)
    logger.debug("applied patch with %d hunk(s) under %s", len(patch.hunks), cwd)
    return result


def _update(hunk: UpdateFile, path: Path, pin: HunkPins, result: ApplyResult) -> None:
    original = read_text(path, hunk.path, purpose="update it")
    new = apply_chunks(original, hunk.chunks, hunk.path)
    if pin.remove is None:
        _write(pin, new, hunk.move_path or hunk.path)
        result.modified.append(Path(hunk.move_path or hunk.path))
        return
    assert hunk.move_path is not None
    try:
        mode = path.stat().st_mode & 0o7777
    except OSError as err:
        raise ApplyPatchError(
            f"Failed to read {hunk.path} to update it: {_describe(err)}"
        ) from None
    _write(pin, new, hunk.move_path, mode)
    try:
        remove_file(pin.remove)
    except OSError as err:
        raise ApplyPatchError(
            f"Failed to remove {hunk.path} after moving it to {hunk.move_path}: {_describe(err)}"
        ) from None
    result.modified.append(Path(hunk.move_path))


def _write(pin: HunkPins, text: str, display: str, mode: int | None = None) -> None:
    assert pin.write is not None
    try:
        data = text.encode("utf-8", errors="surrogateescape")
    except UnicodeEncodeError:
        raise ApplyPatchError(
            f"Failed to write {display}: the new content is not valid Unicode text"
        ) from None
    try:
        write_file(pin.write, data, mode)
    except OSError as err:
        raise ApplyPatchError(f"Failed to write {display}: {_describe(err)}") from None


def _delete(pin: HunkPins, display: str) -> None:
    assert pin.remove is not None
    try:
        remove_file(pin.remove)
    except IsADirectoryError:
        raise ApplyPatchError(
            f"Failed to delete {display}: it is a directory, and apply_patch deletes files only"
        ) from None
    except OSError as err:
        raise ApplyPatchError(f"Failed to delete {display}: {_describe(err)}") from None
