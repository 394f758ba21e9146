"""Creating CODEX_HOME's folders and files so that only their owner can read them."""

from __future__ import annotations

import os
from pathlib import Path

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def private_mkdir(path: Path) -> None:
    """Create `path` and any missing parents with mode 0700 (already existing ones untouched).

    Each folder is created with its mode in the `mkdir` call itself, so there is no moment
    when another user could open it; an existing folder keeps whatever mode it has.

    Raises:
        OSError: If a folder cannot be created.
    """
    missing: list[Path] = []
    current = Path(path)
    while not current.is_dir():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, PRIVATE_DIR_MODE)
        except FileExistsError:
            if not folder.is_dir():
                raise


def touch_private(path: Path) -> None:
    """Create `path` empty with mode 0600 if it does not exist yet (an existing file is kept).

    Raises:
        OSError: If the file cannot be created.
    """
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE_MODE)
    os.close(fd)
