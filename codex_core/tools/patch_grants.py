"""Single files outside the writable roots that an approved patch may write, opened safely.

When the user approves a patch that writes outside the writable roots, the patch still
runs in the platform sandbox: the sandbox gets exactly the approved files on top of the
turn's policy, by descriptor (`ExecParams.writable_files`). Each file is opened here, on
the host, at the real path it had when the user was asked, walking from `/` one component
at a time without following any link: a directory swapped for a symlink while the prompt
was open makes the walk fail instead of redirecting the write. A file the patch adds is
created empty first (its missing parent directories too), the same way.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

# O_PATH is Linux only; elsewhere (macOS) a read-only descriptor serves the same walk.
_PATH = getattr(os, "O_PATH", os.O_RDONLY)
_DIR = _PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class GrantError(Exception):
    """An approved path cannot be granted as it was approved; the message is one line."""


def open_approved(path: Path, *, create: bool) -> int:
    """An O_PATH descriptor of the regular file at `path` (absolute, real), links refused.

    Raises:
        GrantError: a component is a link or not a directory, the file is no regular file,
            or it is missing and `create` is false.
    """
    if not path.is_absolute() or ".." in path.parts:
        raise GrantError(f"{path} is not an absolute, normalised path")
    parts = path.parts[1:]
    if not parts:
        raise GrantError("/ is not a file")
    fd = os.open("/", _DIR)
    try:
        for name in parts[:-1]:
            try:
                child = os.open(name, _DIR, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise GrantError(f"{path}: a directory on the way is gone") from None
                os.mkdir(name, 0o777, dir_fd=fd)
                child = os.open(name, _DIR, dir_fd=fd)
            except OSError as err:
                raise GrantError(
                    f"{path} changed since you approved it ({name} is no longer a directory: "
                    f"{err.strerror})"
                ) from None
            os.close(fd)
            fd = child
        name = parts[-1]
        flags = _PATH | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            found = os.open(name, flags, dir_fd=fd)
        except FileNotFoundError:
            if not create:
                raise GrantError(f"{path} does not exist") from None
            made = os.open(
                name,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                0o666,
                dir_fd=fd,
            )
            os.close(made)
            found = os.open(name, flags, dir_fd=fd)
    except OSError as err:
        raise GrantError(f"{path} cannot be opened for the patch: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if not stat.S_ISREG(os.fstat(found).st_mode):
        os.close(found)
        raise GrantError(f"{path} changed since you approved it: it is no longer a regular file")
    os.set_inheritable(found, True)
    return found


def close_all(grants: list[tuple[int, str]]) -> None:
    """Close the descriptors of `grants`."""
    for fd, _ in grants:
        try:
            os.close(fd)
        except OSError:
            pass
