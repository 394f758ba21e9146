"""Landlock through raw syscalls: ABI probe, ruleset building and self-restriction.

We call the three Landlock syscalls directly instead of using the `landlock` package:
importing that package costs ~30 ms (it pulls in dataclasses/inspect), and even `ctypes`
costs ~3.5 ms, while `sandbox_helper._libc` (on `_ctypes`) and `posix` cost well under
one; the helper runs before every sandboxed command.
"""

import posix

from sandbox_helper._libc import Libc, Structure, byref, c_int32, c_uint64, get_errno

SYS_CREATE_RULESET = 444  # same number on x86_64 and aarch64 (unified syscall table)
SYS_ADD_RULE = 445
SYS_RESTRICT_SELF = 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1

EXECUTE = 1 << 0
WRITE_FILE = 1 << 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
REFER = 1 << 13
TRUNCATE = 1 << 14
IOCTL_DEV = 1 << 15
ABI1_FS = (1 << 13) - 1  # EXECUTE .. MAKE_SYM
NET_BIND_TCP = 1 << 0
NET_CONNECT_TCP = 1 << 1
# ABI 6 scopes: no connecting to abstract unix sockets, and no signals, outside the domain.
SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0
SCOPE_SIGNAL = 1 << 1
SCOPE_ABI = 6

S_IFMT = 0o170000
S_IFDIR = 0o040000

READ_ACCESS = EXECUTE | READ_FILE | READ_DIR
FILE_ACCESS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV


class LandlockError(OSError):
    """Landlock could not be set up; the message says what failed."""


def abi_version(libc: Libc | None = None) -> int:
    """The Landlock ABI the running kernel offers, or 0 when Landlock is unavailable."""
    libc = libc or Libc()
    return max(libc.syscall(SYS_CREATE_RULESET, None, 0, CREATE_RULESET_VERSION), 0)


def handled_fs_access(abi: int) -> int:
    """Every file-system right the given ABI can restrict."""
    access = ABI1_FS
    if abi >= 2:
        access |= REFER
    if abi >= 3:
        access |= TRUNCATE
    if abi >= 5:
        access |= IOCTL_DEV
    return access


class _RulesetAttr(Structure):
    _fields_ = [
        ("handled_access_fs", c_uint64),
        ("handled_access_net", c_uint64),
        ("scoped", c_uint64),
    ]


class _PathBeneathAttr(Structure):
    _pack_ = 1  # the kernel struct is __attribute__((packed))
    _fields_ = [("allowed_access", c_uint64), ("parent_fd", c_int32)]


class Ruleset:
    """An open Landlock ruleset that path rules are added to before `restrict_self`."""

    def __init__(
        self,
        abi: int,
        *,
        restrict_tcp: bool,
        scoped: bool = False,
        libc: Libc | None = None,
    ) -> None:
        """Create a ruleset handling all file-system rights of `abi` (and TCP if asked).

        `scoped` also confines abstract unix sockets and signals to the domain when the
        kernel has ABI 6.
        """
        self._libc = libc or Libc()
        self.abi = abi
        self.handled = handled_fs_access(abi)
        attr = _RulesetAttr(self.handled, 0, 0)
        size = 8
        if restrict_tcp and abi >= 4:
            attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP
            size = 16
        if scoped and abi >= SCOPE_ABI:
            attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
            size = 24
        self.scoped = bool(attr.scoped)
        fd = self._libc.syscall(SYS_CREATE_RULESET, byref(attr), size, 0)
        if fd < 0:
            raise LandlockError(get_errno(), "landlock_create_ruleset failed")
        self.fd = fd

    def allow(self, path: str, access: int) -> bool:
        """Grant `access` beneath `path`; returns False when the path does not exist.

        File paths only take file rights, so directory-only rights are dropped for them.
        """
        try:
            fd = posix.open(path, posix.O_PATH | posix.O_CLOEXEC)
        except OSError:
            return False
        try:
            self.allow_fd(fd, access, path)
        finally:
            posix.close(fd)
        return True

    def allow_fd(self, fd: int, access: int, name: str = "") -> None:
        """Grant `access` beneath the file or directory open on `fd` (an O_PATH one will do)."""
        if posix.fstat(fd).st_mode & S_IFMT != S_IFDIR:
            access &= FILE_ACCESS
        rule = _PathBeneathAttr(access & self.handled, fd)
        rc = self._libc.syscall(SYS_ADD_RULE, self.fd, RULE_PATH_BENEATH, byref(rule), 0)
        if rc < 0:
            raise LandlockError(get_errno(), f"landlock_add_rule failed for {name or fd}")

    def restrict_self(self) -> None:
        """Enforce the ruleset on this process and its future children (needs no_new_privs)."""
        try:
            rc = self._libc.syscall(SYS_RESTRICT_SELF, self.fd, 0)
            if rc < 0:
                raise LandlockError(get_errno(), "landlock_restrict_self failed")
        finally:
            posix.close(self.fd)
