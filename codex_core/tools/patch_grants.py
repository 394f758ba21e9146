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

from codex_core.apply_patch.nofollow import LinkInPath, open_dir

# O_PATH is Linux only; elsewhere (macOS) a read-only descriptor serves the same purpose.
_PATH = getattr(os, "O_PATH", os.O_RDONLY)


class GrantError(Exception):
    """An approved path cannot be granted as it was approved; the message is one line."""


def open_approved(path: Path, *, create: bool) -> int:
    """A descriptor (O_PATH on Linux) of the regular file at `path`, links refused.

    `path` is absolute and real (as pinned before the question); missing parent
    directories and the file itself are created when `create` is set.

    Raises:
        GrantError: a component is a link or not a directory, the file is no regular file,
            or it is missing and `create` is false.
    """
    if not path.is_absolute() or ".." in path.parts or len(path.parts) < 2:
        raise GrantError(f"{path} is not an absolute, normalised file path")
    try:
        parent = open_dir(str(path.parent), create=create)
    except LinkInPath as err:
        raise GrantError(
            f"{path} changed since you approved it ({err.path} is a link now)"
        ) from None
    except OSError as err:
        raise GrantError(f"{path} cannot be opened for the patch: {err.strerror or err}") from None
    flags = _PATH | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        try:
            found = os.open(path.name, flags, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                raise GrantError(f"{path} does not exist") from None
            made = os.open(
                path.name,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                0o666,
                dir_fd=parent,
            )
            os.close(made)
            found = os.open(path.name, flags, dir_fd=parent)
    except OSError as err:
        raise GrantError(f"{path} cannot be opened for the patch: {err.strerror or err}") from None
    finally:
        os.close(parent)
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
