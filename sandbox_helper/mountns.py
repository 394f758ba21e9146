"""Read-only bind mounts of protected directories inside a private user + mount namespace."""

from __future__ import annotations

import ctypes
import os

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RELATIME = 1 << 21
MS_STRICTATIME = 1 << 24

ST_NOSUID = 2
ST_NODEV = 4
ST_NOEXEC = 8
ST_NOATIME = 1024
ST_NODIRATIME = 2048
ST_RELATIME = 4096


class MountNamespaceError(OSError):
    """The namespace or a bind mount could not be set up."""


class NamespaceUnavailable(MountNamespaceError):
    """unshare() failed, so the process is unchanged and another approach may be used."""


def _check(rc: int, what: str) -> None:
    if rc != 0:
        raise MountNamespaceError(ctypes.get_errno(), what)


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _locked_flags(path: str) -> int:
    """Mount flags of `path` that a remount inside a user namespace must keep."""
    f_flag = os.statvfs(path).f_flag
    flags = 0
    for st_bit, ms_bit in (
        (ST_NOSUID, MS_NOSUID),
        (ST_NODEV, MS_NODEV),
        (ST_NOEXEC, MS_NOEXEC),
        (ST_NOATIME, MS_NOATIME),
        (ST_NODIRATIME, MS_NODIRATIME),
        (ST_RELATIME, MS_RELATIME),
    ):
        if f_flag & st_bit:
            flags |= ms_bit
    if not f_flag & (ST_NOATIME | ST_RELATIME):
        flags |= MS_STRICTATIME
    return flags


def enter_private_namespace(libc: ctypes.CDLL) -> None:
    """Move into a new user + mount namespace that keeps our uid/gid and shares no mounts.

    Only our own uid and gid are mapped (a process cannot map more for itself), so other
    owners show as `nobody` inside, and root keeps its override rights only on files
    whose owner and group are root.

    Raises:
        NamespaceUnavailable: user namespaces are unavailable; nothing was changed.
        MountNamespaceError: the namespace was entered but could not be set up.
    """
    uid, gid = os.geteuid(), os.getegid()
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0:
        raise NamespaceUnavailable(ctypes.get_errno(), "user namespaces are unavailable")
    try:
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1\n")
        _write("/proc/self/gid_map", f"{gid} {gid} 1\n")
    except OSError as err:
        raise MountNamespaceError(err.errno, f"writing user namespace id maps: {err}") from None
    _check(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "making mounts private")


def bind_read_only(libc: ctypes.CDLL, path: str) -> None:
    """Bind-mount `path` onto itself and make that mount read-only.

    Raises:
        MountNamespaceError: the kernel refused the bind or the remount.
    """
    target = path.encode()
    flags = _locked_flags(path)
    _check(libc.mount(target, target, None, MS_BIND | MS_REC, None), f"bind-mounting {path}")
    remount = MS_BIND | MS_REMOUNT | MS_RDONLY | flags
    _check(libc.mount(None, target, None, remount, None), f"remounting {path} read-only")
