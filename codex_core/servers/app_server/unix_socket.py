"""The unix socket of `--listen unix://[PATH]`, laid out as Codex 0.169 does (observed).

The socket itself lives in `/tmp/codex-daemon-<uid>/` (mode 0700) under the SHA-256 of the
requested path, with a `.lock` file held while the server runs; the requested path is a
symlink to it (socket paths are limited to ~100 bytes, CODEX_HOME paths may be longer). A
path held by a running server, or one that is not a socket or symlink, is refused. At exit
the symlink, the socket and the lock file are removed.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import stat
from pathlib import Path

from sandbox_helper.launch import daemon_sockets


class SocketPathError(RuntimeError):
    """The socket path is taken or unusable (0.169's startup error text)."""


def runtime_dir() -> Path:
    """`/tmp/codex-daemon-<uid>`, created 0700; refused when someone else owns it."""
    path = Path(daemon_sockets())  # read-only inside the sandbox (sandbox_helper.launch)
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        info = path.lstat()
    except OSError as err:
        raise SocketPathError(f"cannot create {path}: {err.strerror}") from None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise SocketPathError(f"{path} is not a directory owned by this user")
    if stat.S_IMODE(info.st_mode) != 0o700:
        os.chmod(path, 0o700)
    return path


class ControlSocket:
    """The socket file, its lock and the symlink at the requested path."""

    def __init__(self, requested: Path) -> None:
        self.requested = requested
        directory = runtime_dir()
        digest = hashlib.sha256(str(requested).encode()).hexdigest()
        self.real = directory / digest
        self.lock_path = directory / f"{digest}.lock"
        self._lock_fd: int | None = None

    def prepare(self) -> None:
        """Take the lock and clear stale files; raises SocketPathError."""
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise SocketPathError(
                f"app-server control socket is already in use at {self.requested}"
            ) from None
        self._lock_fd = fd
        try:
            info = self.requested.lstat()
        except FileNotFoundError:
            info = None
        if info is not None:
            if not (stat.S_ISLNK(info.st_mode) or stat.S_ISSOCK(info.st_mode)):
                self.release()
                raise SocketPathError(
                    f"app-server control socket path exists and is not a socket: {self.requested}"
                )
            self.requested.unlink()
        self.real.unlink(missing_ok=True)
        self.requested.parent.mkdir(parents=True, exist_ok=True)

    def publish(self) -> None:
        """Once the server listens on `real`: make it private and link the requested path."""
        os.chmod(self.real, 0o600)
        os.symlink(self.real, self.requested)

    def release(self) -> None:
        """Remove the symlink (if still ours), the socket and the lock."""
        try:
            if self.requested.is_symlink() and Path(os.readlink(self.requested)) == self.real:
                self.requested.unlink()
        except OSError:
            pass
        self.real.unlink(missing_ok=True)
        if self._lock_fd is not None:
            self.lock_path.unlink(missing_ok=True)
            os.close(self._lock_fd)
            self._lock_fd = None
