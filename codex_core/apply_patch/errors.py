"""Errors raised by apply_patch: one user-facing sentence each.

Exception tree:

    ApplyPatchError            anything that stops a patch; str(e) is the message to show
    └── PatchParseError        the patch text itself is malformed (nothing was applied)
"""

from __future__ import annotations

from pathlib import Path


class ApplyPatchError(Exception):
    """A patch could not be verified or applied; `str(err)` is the one-line message."""

    def __init__(self, message: str, *, path: Path | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        return self.message


class PatchParseError(ApplyPatchError):
    """The patch text does not follow the apply_patch grammar."""

    def __init__(self, message: str, *, line_number: int | None = None) -> None:
        if line_number is None:
            text = f"Invalid patch: {message}"
        else:
            text = f"Invalid patch hunk on line {line_number}: {message}"
        super().__init__(text)
        self.reason = message
        self.line_number = line_number
