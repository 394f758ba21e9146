"""Files codex keeps beside its bytecode (`__pycache__`): names per interpreter, and writing
one so that nothing left in the folder can redirect or tamper with the write.

Standard library only and light: the console script uses it before anything else loads.
"""

from __future__ import annotations

import os
import sys


def tagged(stem: str) -> str:
    """`stem` with this interpreter's cache tag and optimisation level, as `.pyc` names have."""
    tag = sys.implementation.cache_tag or "python"
    opt = f".opt-{sys.flags.optimize}" if sys.flags.optimize else ""
    return f"{stem}.{tag}{opt}"


def write_new(path: str | os.PathLike[str], parts: list[bytes]) -> bool:
    """Write `parts` to `path` atomically through a new file of this process's own (created
    with O_EXCL|O_NOFOLLOW: never through a link or over a file someone left there); False
    (and nothing left behind) when that fails."""
    tmp = f"{os.fspath(path)}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(tmp), exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as out:
            out.writelines(parts)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False
    return True
