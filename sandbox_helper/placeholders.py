"""A machine-wide registry of the mount points bubblewrap creates for absent protected paths.

A protected path that does not exist (`.git` or `.codex` at the top of a writable root, an
absent CODEX_HOME under one) is covered in every sandbox by that sandbox's own read-only
tmpfs, and bubblewrap creates an empty directory in the real tree as its mount point.
Removing that directory while another sandbox still has a mount on it would detach that
sandbox's cover (the kernel lazily unmounts every mount on a removed dentry, in every
namespace), so a placeholder is removed only when no sandbox on the machine uses it.

The registry is one lock file per placeholder in a directory no sandbox can see or write:
`/dev/shm/codex-sandbox-<uid>` (every bubblewrap sandbox gets a private /dev, and the
Landlock-only fallback grants no writes under /dev). A launch holds a shared `flock` on
the path's lock file for as long as its sandbox lives: the lock belongs to the codex
process that owns bubblewrap, is never inherited by the sandbox (close-on-exec), and dies
with that process, as the sandbox does (`--die-with-parent`). When a sandbox ends, its
owner tries to take the lock exclusively; only if no other holder exists anywhere does it
remove the (empty) directory and the lock file. A lock file also marks an existing empty
directory as a placeholder rather than the user's own, so the next sandbox covers it again
instead of bind-mounting it. Without a usable registry directory placeholders are left in
place rather than risk removing one another sandbox still uses.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import time

REGISTRY_PARENT = "/dev/shm"
WAIT_SECONDS = 2.0
"""How long a launch waits for another codex that is removing the same placeholder."""


class PlaceholderBusy(OSError):
    """The registry stayed locked past the wait; the message is one line."""


def registry_dir() -> str | None:
    """The registry directory (created 0700 on first use), or None when it is unusable."""
    path = f"{REGISTRY_PARENT}/codex-sandbox-{os.getuid()}"
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    return path


def _lock_path(registry: str, path: str) -> str:
    """The lock file of `path`: its escaped name, or a hash of a long one.

    (hashlib costs ~12 ms to import on this path; two paths sharing a lock file would only
    keep a placeholder longer, never remove one in use.)
    """
    name = path.replace("%", "%25").replace("/", "%2F")
    if len(name) > 200:
        digest = 0xCBF29CE484222325
        for byte in path.encode("utf-8", "surrogateescape"):
            digest = ((digest ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        name = f"{digest:016x}{name[-150:]}"
    return f"{registry}/{name}"


class Hold:
    """A shared claim on one placeholder path, released by `release`."""

    __slots__ = ("path", "lock_path", "fd", "registered")

    def __init__(self, path: str, lock_path: str, fd: int, registered: bool) -> None:
        """Keep the open, shared-locked lock file of `path`."""
        self.path = path
        self.lock_path = lock_path
        self.fd = fd
        self.registered = registered

    def release(self) -> None:
        """Give up the claim; the last holder on the machine removes the empty placeholder."""
        if self.fd < 0:
            return
        fd, self.fd = self.fd, -1
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)  # another sandbox still covers the path: it stays
            return
        try:
            try:
                os.rmdir(self.path)  # only an empty directory; never follows a link
            except FileNotFoundError:
                pass
            except OSError as err:
                if err.errno not in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR):
                    return  # busy or not ours to remove: keep the marker for the next try
            os.unlink(self.lock_path)
        except OSError:
            pass
        finally:
            os.close(fd)


def is_registered(registry: str | None, path: str) -> bool:
    """Whether `path` is a placeholder some sandbox created (its lock file exists)."""
    return registry is not None and os.path.lexists(_lock_path(registry, path))


def hold(registry: str, path: str, wait: float = WAIT_SECONDS) -> Hold:
    """Claim `path` as a placeholder for one sandbox's lifetime.

    Raises:
        PlaceholderBusy: another codex kept the path's lock exclusively for `wait` seconds.
        OSError: the lock file could not be opened.
    """
    lock_path = _lock_path(registry, path)
    deadline = time.monotonic() + wait
    flags = os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW
    while True:
        registered = os.path.lexists(lock_path)
        fd = os.open(lock_path, flags | os.O_CREAT, 0o600)
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise PlaceholderBusy(
                            errno.EBUSY, f"the sandbox registry entry for {path} stays locked"
                        ) from None
                    time.sleep(0.001)
            # The remover unlinks the file while holding it exclusively: a lock taken on an
            # unlinked file protects nothing, so start again with a fresh one.
            if os.fstat(fd).st_ino == os.stat(lock_path, follow_symlinks=False).st_ino:
                if not registered:
                    os.write(fd, path.encode("utf-8", "surrogateescape"))
                return Hold(path, lock_path, fd, registered)
        except FileNotFoundError:
            pass
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
