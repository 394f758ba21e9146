"""Pinning a patch's paths when it is checked: where each hunk writes and what it removes.

A pin is an absolute path with no symbolic link in it, fixed before the patch is approved
(or auto-approved): the file a hunk writes is the one its path named then, through any
link that existed then (a link to a file is written through; once a patch removed the
link, a later hunk writes a plain file in its place), and the entry a hunk removes is the
name itself in its parent as resolved then. The writer (`nofollow`) follows no link on
the way to a pin, so nothing swapped in afterwards redirects a write.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple

from codex_core.apply_patch.errors import ApplyPatchError
from codex_core.apply_patch.model import AddFile, DeleteFile, Patch


class HunkPins(NamedTuple):
    """The pinned file one hunk writes (None for a delete) and the entry it removes."""

    write: str | None
    remove: str | None


def _entry(path: str) -> str:
    """`path`'s own directory entry: its parent resolved, its last name kept."""
    return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))


def pin_patch(patch: Patch, cwd: Path) -> list[HunkPins]:
    """One `HunkPins` per hunk of `patch`, resolved now against `cwd`."""
    replaced: set[str] = set()  # paths an earlier hunk removed: a later write is a plain file
    pins: list[HunkPins] = []

    def write_pin(path: str) -> str:
        return _entry(path) if path in replaced else os.path.realpath(path)

    def remove_pin(path: str) -> str:
        replaced.add(path)
        return _entry(path)

    for hunk in patch.hunks:
        path = os.path.normpath(os.path.join(cwd, hunk.path))
        if isinstance(hunk, AddFile):
            pins.append(HunkPins(write_pin(path), None))
        elif isinstance(hunk, DeleteFile):
            pins.append(HunkPins(None, remove_pin(path)))
        elif hunk.move_path is None:
            pins.append(HunkPins(write_pin(path), None))
        else:
            dest = os.path.normpath(os.path.join(cwd, hunk.move_path))
            if dest == path:
                pins.append(HunkPins(write_pin(path), None))
            else:
                written = write_pin(dest)
                pins.append(HunkPins(written, remove_pin(path)))
    return pins


def pinned_paths(pins: list[HunkPins]) -> list[Path]:
    """Every pinned path a patch writes or removes, in order, without repeats."""
    paths = [p for pin in pins for p in (pin.write, pin.remove) if p is not None]
    return [Path(p) for p in dict.fromkeys(paths)]


def encode_pins(pins: list[HunkPins]) -> str:
    """The pins as one line of JSON (what the `apply_patch --pinned` command reads first)."""
    return json.dumps([[pin.write, pin.remove] for pin in pins])


def decode_pins(line: str, hunks: int) -> list[HunkPins]:
    """Pins for a patch of `hunks` hunks from `encode_pins`'s line.

    Raises:
        ApplyPatchError: the line is not pins for this patch.
    """
    try:
        data = json.loads(line)
    except json.JSONDecodeError:
        data = None
    ok = isinstance(data, list) and len(data) == hunks
    pins: list[HunkPins] = []
    for item in data if ok else []:
        if not (isinstance(item, list) and len(item) == 2):
            ok = False
            break
        write, remove = item
        if not all(p is None or (isinstance(p, str) and os.path.isabs(p)) for p in item):
            ok = False
            break
        pins.append(HunkPins(write, remove))
    if not ok:
        raise ApplyPatchError("apply_patch --pinned: the first line must pin every hunk")
    return pins
