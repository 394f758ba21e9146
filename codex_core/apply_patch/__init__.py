"""The apply_patch format: parse, verify, apply, recognise in shell calls, and diff a turn."""

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
