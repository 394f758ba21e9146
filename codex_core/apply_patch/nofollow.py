"""Writing at pinned paths without following links: every component opened from `/` in turn.

A patch's paths are pinned when the patch is checked (`codex_core.apply_patch.pins`):
each becomes a path with no symbolic link in it. Writing walks that path from the root
directory one component at a time with O_NOFOLLOW, holding each directory open, so a
directory swapped for a link after the check (even while the walk runs) ends the write
with `LinkInPath` instead of redirecting it.
"""

from __future__ import annotations

import errno
import os
import stat

# O_PATH (Linux) opens a directory for use as dir_fd without needing read permission.
_DIR_FLAGS = os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC | getattr(os, "O_PATH", os.O_RDONLY)
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC


class LinkInPath(OSError):
    """A component of a pinned path is a symbolic link now; nothing was written there."""

    def __init__(self, path: str) -> None:
        """`path` is the component (an absolute path) that is a link."""
        super().__init__(errno.ELOOP, f"{path} is a symbolic link now", path)
        self.path = path


def _components(path: str) -> list[str]:
    if not os.path.isabs(path):
        raise ValueError(f"pinned paths are absolute: {path!r}")
    return [part for part in os.path.normpath(path).split("/") if part]


def _is_link(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _open_child(name: str, dir_fd: int, where: str) -> int:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except OSError as err:
        if err.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link(name, dir_fd):
            raise LinkInPath(where) from None
        raise


def open_dir(path: str, *, create: bool, created: list[str] | None = None) -> int:
    """A descriptor of directory `path`, reached from `/` without following any link.

    Args:
        path: An absolute path.
        create: Make missing directories on the way (mode 0o777 less the umask).
        created: When given, each directory made is appended to it (outermost first).

    Raises:
        LinkInPath: a component is a symbolic link.
        OSError: a component is missing (without `create`), not a directory, or unreadable.
    """
    fd = os.open("/", _DIR_FLAGS)
    where = ""
    try:
        for name in _components(path):
            where = f"{where}/{name}"
            try:
                child = _open_child(name, fd, where)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(name, 0o777, dir_fd=fd)
                    if created is not None:
                        created.append(where)
                except FileExistsError:
                    pass
                child = _open_child(name, fd, where)
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_file(path: str, data: bytes, mode: int | None = None) -> None:
    """Replace the contents of the file at `path` (created if missing) with `data`.

    Missing parent directories are created; `mode`, when given, is applied afterwards.

    Raises:
        LinkInPath: `path` or one of its parents is a symbolic link.
        OSError: the file could not be written.
    """
    parent = open_dir(os.path.dirname(path), create=True)
    name = os.path.basename(path)
    try:
        try:
            fd = os.open(name, _WRITE_FLAGS, 0o666, dir_fd=parent)
        except OSError as err:
            if err.errno == errno.ELOOP and _is_link(name, parent):
                raise LinkInPath(path) from None
            raise
    finally:
        os.close(parent)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if mode is not None:
            os.fchmod(fd, mode)
    finally:
        os.close(fd)


def remove_file(path: str) -> None:
    """Remove the directory entry `path` (a file or a link, never a directory).

    Raises:
        LinkInPath: a parent of `path` is a symbolic link.
        IsADirectoryError: `path` is a directory.
        OSError: it does not exist or could not be removed.
    """
    parent = open_dir(os.path.dirname(path), create=False)
    name = os.path.basename(path)
    try:
        if stat.S_ISDIR(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        os.unlink(name, dir_fd=parent)
    finally:
        os.close(parent)
