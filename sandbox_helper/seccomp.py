"""A hand-assembled seccomp-BPF filter that blocks network syscalls, ptrace and io_uring.

The filter is built as raw BPF through ctypes rather than with `pyseccomp` (libseccomp):
importing pyseccomp costs ~35 ms, the filter is small and fixed, and raw BPF needs no
shared library. Blocked syscalls fail with EPERM; `socket`/`socketpair` are allowed only
for AF_UNIX. Foreign architectures (e.g. 32-bit or x32 syscalls) kill the process, since
their syscall numbers differ and would slip past the filter.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct

PR_SET_NO_NEW_PRIVS = 38
PR_GET_SECCOMP = 21
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_GET_ACTION_AVAIL = 2

RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
RET_ALLOW = 0x7FFF0000

# BPF opcodes: load word (absolute), jump-if-equal / jump-if-greater-or-equal (constant), return.
LD_W_ABS = 0x20
JEQ_K = 0x15
JGE_K = 0x35
RET_K = 0x06

OFFSET_NR = 0
OFFSET_ARCH = 4
OFFSET_ARG0 = 16  # low 32 bits of args[0] on little-endian machines

X32_SYSCALL_BIT = 0x40000000
AF_UNIX = 1

BLOCKED_NAMES = (
    "connect",
    "accept",
    "accept4",
    "bind",
    "listen",
    "sendmmsg",
    "recvmmsg",
    "getsockopt",
    "setsockopt",
    "getpeername",
    "getsockname",
    "shutdown",
    "ptrace",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
)
UNIX_ONLY_NAMES = ("socket", "socketpair")
# sendto is blocked only with a destination address: with a NULL address it is what libc's
# send(2) uses on an already-connected socket, and the only sockets a sandboxed command
# can create are AF_UNIX ones (e.g. asyncio's self-pipe socketpair).
ADDRESSED_NAMES = ("sendto",)
OFFSET_ARG4_LOW = 16 + 8 * 4
OFFSET_ARG4_HIGH = OFFSET_ARG4_LOW + 4

# Per machine: (AUDIT_ARCH value, syscall numbers, seccomp(2) number).
ARCHES: dict[str, tuple[int, dict[str, int], int]] = {
    "x86_64": (
        0xC000003E,
        {
            "socket": 41,
            "connect": 42,
            "accept": 43,
            "sendto": 44,
            "shutdown": 48,
            "bind": 49,
            "listen": 50,
            "getsockname": 51,
            "getpeername": 52,
            "socketpair": 53,
            "setsockopt": 54,
            "getsockopt": 55,
            "ptrace": 101,
            "accept4": 288,
            "recvmmsg": 299,
            "sendmmsg": 307,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
        },
        317,
    ),
    "aarch64": (
        0xC00000B7,
        {
            "ptrace": 117,
            "socket": 198,
            "socketpair": 199,
            "bind": 200,
            "listen": 201,
            "accept": 202,
            "connect": 203,
            "getsockname": 204,
            "getpeername": 205,
            "sendto": 206,
            "setsockopt": 208,
            "getsockopt": 209,
            "shutdown": 210,
            "accept4": 242,
            "recvmmsg": 243,
            "sendmmsg": 269,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
        },
        277,
    ),
}


class SeccompError(OSError):
    """The seccomp filter could not be installed; the message says why."""


def machine() -> str:
    """The machine name, normalised ("arm64" -> "aarch64")."""
    name = os.uname().machine
    return "aarch64" if name == "arm64" else name


def build_network_filter(arch: str) -> bytes:
    """The BPF program (packed `struct sock_filter` array) for `arch`.

    Raises:
        SeccompError: the architecture is not supported.
    """
    if arch not in ARCHES:
        raise SeccompError(errno.ENOSYS, f"no seccomp filter for the {arch} architecture")
    audit_arch, numbers, _ = ARCHES[arch]
    # Instructions as (code, jt_label, jf_label, k); labels resolve to relative jumps.
    prog: list[tuple[int, str | int, str | int, int]] = [
        (LD_W_ABS, 0, 0, OFFSET_ARCH),
        (JEQ_K, 0, "kill", audit_arch),
        (LD_W_ABS, 0, 0, OFFSET_NR),
    ]
    if arch == "x86_64":
        prog.append((JGE_K, "kill", 0, X32_SYSCALL_BIT))
    prog += [(JEQ_K, "deny", 0, numbers[name]) for name in BLOCKED_NAMES]
    prog += [(JEQ_K, "unix_only", 0, numbers[name]) for name in UNIX_ONLY_NAMES]
    prog += [(JEQ_K, "addressed", 0, numbers[name]) for name in ADDRESSED_NAMES]
    base = len(prog)
    labels = {"unix_only": base + 1, "addressed": base + 4, "deny": base + 9, "kill": base + 10}
    prog += [
        (RET_K, 0, 0, RET_ALLOW),
        (LD_W_ABS, 0, 0, OFFSET_ARG0),  # unix_only
        (JEQ_K, 0, "deny", AF_UNIX),
        (RET_K, 0, 0, RET_ALLOW),
        (LD_W_ABS, 0, 0, OFFSET_ARG4_LOW),  # addressed: allow only a NULL address
        (JEQ_K, 0, "deny", 0),
        (LD_W_ABS, 0, 0, OFFSET_ARG4_HIGH),
        (JEQ_K, 0, "deny", 0),
        (RET_K, 0, 0, RET_ALLOW),
        (RET_K, 0, 0, RET_ERRNO | errno.EPERM),  # deny
        (RET_K, 0, 0, RET_KILL_PROCESS),  # kill
    ]
    out = bytearray()
    for index, (code, jt, jf, k) in enumerate(prog):
        jt_off = labels[jt] - index - 1 if isinstance(jt, str) else jt
        jf_off = labels[jf] - index - 1 if isinstance(jf, str) else jf
        out += struct.pack("=HBBI", code, jt_off, jf_off, k)
    return bytes(out)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def filter_available(libc: ctypes.CDLL | None = None) -> bool:
    """Whether the kernel supports seccomp filters returning errors on this architecture."""
    libc = libc or ctypes.CDLL(None, use_errno=True)
    arch = ARCHES.get(machine())
    if arch is None:
        return False
    action = ctypes.c_uint32(RET_ERRNO)
    libc.syscall.restype = ctypes.c_long
    return int(libc.syscall(arch[2], SECCOMP_GET_ACTION_AVAIL, 0, ctypes.byref(action))) == 0


def set_no_new_privs(libc: ctypes.CDLL) -> None:
    """Set PR_SET_NO_NEW_PRIVS so exec can never gain privileges (setuid, file caps)."""
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise SeccompError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")


def install_network_filter(libc: ctypes.CDLL) -> None:
    """Install the network filter on this thread and verify that seccomp is enforcing.

    Raises:
        SeccompError: unsupported architecture, or the kernel refused the filter.
    """
    program = build_network_filter(machine())
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.addressof(buffer))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise SeccompError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
    if libc.prctl(PR_GET_SECCOMP, 0, 0, 0, 0) != SECCOMP_MODE_FILTER:
        raise SeccompError(errno.EPERM, "seccomp filter is not enforced after installation")
