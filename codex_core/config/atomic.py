"""Writing config.toml whole or not at all (light: the standard library and ConfigError)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from codex_core.config.errors import ConfigError


def atomic_write(path: Path, text: str) -> None:
    """Replace `path` with `text` through a synced temporary file beside it, keeping its mode.

    Raises:
        ConfigError: the folder or the file cannot be written (one line naming the file).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        fd, tmp = tempfile.mkstemp(prefix=".config.toml.", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as err:
        raise ConfigError(
            f"{path}: cannot write it ({err.strerror}); check its permissions"
        ) from err
