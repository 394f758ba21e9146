"""The apply_patch format: parse, verify, apply, recognise in shell calls, and diff a turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from codex_core.lazy import lazy_attributes

if TYPE_CHECKING:
    from codex_core.apply_patch.apply import apply_patch, compute_changes
    from codex_core.apply_patch.errors import ApplyPatchError, PatchParseError
    from codex_core.apply_patch.model import (
        AddFile,
        ApplyResult,
        DeleteFile,
        FileChangeInfo,
        Hunk,
        Patch,
        UpdateChunk,
        UpdateFile,
    )
    from codex_core.apply_patch.parser import parse_patch
    from codex_core.apply_patch.pins import HunkPins, encode_pins, pin_patch, pinned_paths
    from codex_core.apply_patch.shell import extract_apply_patch_from_shell
    from codex_core.apply_patch.turn_diff import TurnDiffTracker

_MODULE_OF = {
    "apply_patch": "apply",
    "compute_changes": "apply",
    "ApplyPatchError": "errors",
    "PatchParseError": "errors",
    "AddFile": "model",
    "ApplyResult": "model",
    "DeleteFile": "model",
    "FileChangeInfo": "model",
    "Hunk": "model",
    "Patch": "model",
    "UpdateChunk": "model",
    "UpdateFile": "model",
    "parse_patch": "parser",
    "HunkPins": "pins",
    "encode_pins": "pins",
    "pin_patch": "pins",
    "pinned_paths": "pins",
    "extract_apply_patch_from_shell": "shell",
    "TurnDiffTracker": "turn_diff",
}
"""Where each name lives: loaded on first use, so a session imports only what its first
request needs (issue 29)."""

__all__ = [
    "AddFile",
    "ApplyPatchError",
    "ApplyResult",
    "DeleteFile",
    "FileChangeInfo",
    "Hunk",
    "HunkPins",
    "Patch",
    "PatchParseError",
    "TurnDiffTracker",
    "UpdateChunk",
    "UpdateFile",
    "apply_patch",
    "compute_changes",
    "encode_pins",
    "extract_apply_patch_from_shell",
    "parse_patch",
    "pin_patch",
    "pinned_paths",
]

__getattr__ = lazy_attributes(__name__, _MODULE_OF, globals())
