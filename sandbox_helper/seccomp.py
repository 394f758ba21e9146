"""A hand-assembled seccomp-BPF filter: network, ptrace, io_uring, TIOCSTI and host IPC.

The filter is built as raw BPF (installed through `sandbox_helper._libc`) rather than with `pyseccomp` (libseccomp):
importing pyseccomp costs ~35 ms under the isolated start, the filter is small and fixed,
and raw BPF needs no shared library. Blocked syscalls fail with EPERM. Foreign
architectures (32-bit or x32 syscalls) kill the process, since their syscall numbers
differ and would slip past the filter.

Always denied: ptrace, io_uring, and the TIOCSTI / TIOCLINUX ioctls (keystroke injection
into a terminal). Unix sockets that can address a peer are refused in every mode:
`sendmsg`/`sendto` with a destination address cannot be filtered (the address sits behind a
pointer), so a datagram socket would reach a host socket path such as /dev/log without
connect(). The type is checked by allow-list, not by naming the datagram type: the kernel
treats SOCK_RAW on AF_UNIX as SOCK_DGRAM, and SOCK_RDM or a future type may do the same.
Without network: every socket syscall that names a peer is denied and `socket` only
creates AF_UNIX stream sockets. With network: `socket(AF_UNIX)` is denied, so host
services listening on unix sockets (docker, dbus, ssh-agent) stay out of reach while
TCP/UDP work. `socketpair` keeps working for stream and seqpacket pairs (both refuse a
destination address on send). `deny_sysv` also blocks System V IPC (used when
there is no IPC namespace).
"""

import errno
import posix
import sys

from sandbox_helper._libc import Libc, Structure, byref, c_char_p, c_uint32, c_ushort, get_errno

PR_SET_NO_NEW_PRIVS = 38
PR_GET_SECCOMP = 21
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SECCOMP_GET_ACTION_AVAIL = 2

RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
RET_ALLOW = 0x7FFF0000

# BPF opcodes: load word (absolute), and-constant, jump-if-equal / jump-if-greater-or-equal
# (constant), return.
LD_W_ABS = 0x20
AND_K = 0x54
JEQ_K = 0x15
JGE_K = 0x35
JSET_K = 0x45
RET_K = 0x06

OFFSET_NR = 0
OFFSET_ARCH = 4


def arg_low(index: int) -> int:
    """Offset of the low 32 bits of syscall argument `index` (little-endian machines)."""
    return 16 + 8 * index


X32_SYSCALL_BIT = 0x40000000
AF_UNIX = 1
SOCK_STREAM = 1
SOCK_DGRAM = 2
SOCK_SEQPACKET = 5
SOCK_TYPE_MASK = 0xF  # the low bits; SOCK_NONBLOCK / SOCK_CLOEXEC sit above them
TIOCSTI = 0x5412
TIOCLINUX = 0x541C
CLONE_NEWUSER = 0x10000000

ALWAYS_DENIED = ("ptrace", "io_uring_setup", "io_uring_enter", "io_uring_register")
NETWORK_DENIED = (
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
)
SYSV_DENIED = (
    "shmget",
    "shmat",
    "shmctl",
    "shmdt",
    "semget",
    "semop",
    "semctl",
    "semtimedop",
    "msgget",
    "msgsnd",
    "msgrcv",
    "msgctl",
)
# Kept for callers and tests that list what a no-network filter blocks outright.
BLOCKED_NAMES = ALWAYS_DENIED + NETWORK_DENIED

# Per machine: (AUDIT_ARCH value, syscall numbers, seccomp(2) number).
ARCHES: dict[str, tuple[int, dict[str, int], int]] = {
    "x86_64": (
        0xC000003E,
        {
            "ioctl": 16,
            "shmget": 29,
            "shmat": 30,
            "shmctl": 31,
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
            "semget": 64,
            "semop": 65,
            "semctl": 66,
            "shmdt": 67,
            "msgget": 68,
            "msgsnd": 69,
            "msgrcv": 70,
            "msgctl": 71,
            "ptrace": 101,
            "semtimedop": 220,
            "accept4": 288,
            "recvmmsg": 299,
            "sendmmsg": 307,
            "io_uring_setup": 425,
            "io_uring_enter": 426,
            "io_uring_register": 427,
            "clone": 56,
            "unshare": 272,
            "clone3": 435,
        },
        317,
    ),
    "aarch64": (
        0xC00000B7,
        {
            "ioctl": 29,
            "ptrace": 117,
            "msgget": 186,
            "msgctl": 187,
            "msgrcv": 188,
            "msgsnd": 189,
            "semget": 190,
            "semctl": 191,
            "semtimedop": 192,
            "semop": 193,
            "shmget": 194,
            "shmctl": 195,
            "shmat": 196,
            "shmdt": 197,
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
            "unshare": 97,
            "clone": 220,
            "clone3": 435,
        },
        277,
    ),
}

Insn = tuple[int, "str | int", "str | int", int]


class SeccompError(OSError):
    """The seccomp filter could not be installed; the message says why."""


def machine() -> str:
    """The machine name, normalised ("arm64" -> "aarch64")."""
    name = posix.uname().machine
    return "aarch64" if name == "arm64" else name


def _check_arg(offset: int, value: int, on_match: str, mask: int = 0) -> list[Insn]:
    """Load an argument word (optionally masked) and jump to `on_match` when it equals `value`."""
    insns: list[Insn] = [(LD_W_ABS, 0, 0, offset)]
    if mask:
        insns.append((AND_K, 0, 0, mask))
    insns.append((JEQ_K, on_match, 0, value))
    return insns


def build_filter(arch: str, *, network: bool, deny_sysv: bool = False) -> bytes:
    """The BPF program (packed `struct sock_filter` array) for `arch` and the given mode.

    Raises:
        SeccompError: the architecture is not supported.
    """
    if arch not in ARCHES:
        raise SeccompError(errno.ENOSYS, f"no seccomp filter for the {arch} architecture")
    audit_arch, numbers, _ = ARCHES[arch]
    denied = list(ALWAYS_DENIED)
    if not network:
        denied += NETWORK_DENIED
    if deny_sysv:
        denied += SYSV_DENIED
    head: list[Insn] = [
        (LD_W_ABS, 0, 0, OFFSET_ARCH),
        (JEQ_K, 0, "kill", audit_arch),
        (LD_W_ABS, 0, 0, OFFSET_NR),
    ]
    if arch == "x86_64":
        head.append((JGE_K, "kill", 0, X32_SYSCALL_BIT))
    head += [(JEQ_K, "deny", 0, numbers[name]) for name in denied]
    # No new user namespaces (what bwrap's --disable-userns gave, at ~3 ms a launch):
    # unshare/clone with CLONE_NEWUSER fail with EPERM; clone3 keeps its flags in memory
    # the filter cannot read, so it answers ENOSYS and libc falls back to clone.
    head += [
        (JEQ_K, "newuser", 0, numbers["unshare"]),
        (JEQ_K, "newuser", 0, numbers["clone"]),
        (JEQ_K, "enosys", 0, numbers["clone3"]),
    ]
    head += [
        (JEQ_K, "ioctl", 0, numbers["ioctl"]),
        (JEQ_K, "socket", 0, numbers["socket"]),
        (JEQ_K, "socketpair", 0, numbers["socketpair"]),
    ]
    if not network:
        head.append((JEQ_K, "sendto", 0, numbers["sendto"]))
    head.append((RET_K, 0, 0, RET_ALLOW))
    blocks: dict[str, list[Insn]] = {
        "ioctl": [
            *_check_arg(arg_low(1), TIOCSTI, "deny"),
            (JEQ_K, "deny", 0, TIOCLINUX),
            (RET_K, 0, 0, RET_ALLOW),
        ],
        "socketpair": [
            (LD_W_ABS, 0, 0, arg_low(1)),
            (AND_K, 0, 0, SOCK_TYPE_MASK),
            (JEQ_K, "allow", 0, SOCK_STREAM),
            (JEQ_K, "allow", "deny", SOCK_SEQPACKET),
        ],
    }
    if network:
        blocks["socket"] = [*_check_arg(arg_low(0), AF_UNIX, "deny"), (RET_K, 0, 0, RET_ALLOW)]
    else:
        blocks["socket"] = [
            (LD_W_ABS, 0, 0, arg_low(0)),
            (JEQ_K, 0, "deny", AF_UNIX),
            (LD_W_ABS, 0, 0, arg_low(1)),
            (AND_K, 0, 0, SOCK_TYPE_MASK),
            (JEQ_K, "allow", "deny", SOCK_STREAM),
        ]
        # sendto is allowed only without a destination address: with a NULL address it
        # is what libc's send(2) uses on an already-connected socket.
        blocks["sendto"] = [
            (LD_W_ABS, 0, 0, arg_low(4)),
            (JEQ_K, 0, "deny", 0),
            (LD_W_ABS, 0, 0, arg_low(4) + 4),
            (JEQ_K, 0, "deny", 0),
            (RET_K, 0, 0, RET_ALLOW),
        ]
    blocks["newuser"] = [
        (LD_W_ABS, 0, 0, arg_low(0)),
        (JSET_K, "deny", 0, CLONE_NEWUSER),
        (RET_K, 0, 0, RET_ALLOW),
    ]
    blocks["allow"] = [(RET_K, 0, 0, RET_ALLOW)]
    blocks["enosys"] = [(RET_K, 0, 0, RET_ERRNO | errno.ENOSYS)]
    blocks["deny"] = [(RET_K, 0, 0, RET_ERRNO | errno.EPERM)]
    blocks["kill"] = [(RET_K, 0, 0, RET_KILL_PROCESS)]
    prog = list(head)
    labels: dict[str, int] = {}
    for label, insns in blocks.items():
        labels[label] = len(prog)
        prog += insns
    # struct sock_filter {u16 code; u8 jt; u8 jf; u32 k;} in native byte order; to_bytes
    # raises OverflowError for a jump too far for its byte, as struct.pack would.
    order = sys.byteorder
    out = bytearray()
    for index, (code, jt, jf, k) in enumerate(prog):
        jt_off = labels[jt] - index - 1 if isinstance(jt, str) else jt
        jf_off = labels[jf] - index - 1 if isinstance(jf, str) else jf
        out += code.to_bytes(2, order)
        out += jt_off.to_bytes(1, order) + jf_off.to_bytes(1, order)
        out += k.to_bytes(4, order)
    return bytes(out)


def build_network_filter(arch: str) -> bytes:
    """The filter of a policy without network access (kept for callers of the old name)."""
    return build_filter(arch, network=False)


class _SockFprog(Structure):
    # `filter` points into the bytes object stored in it, which the structure keeps alive.
    _fields_ = [("len", c_ushort), ("filter", c_char_p)]


def filter_available(libc: Libc | None = None) -> bool:
    """Whether the kernel supports seccomp filters returning errors on this architecture."""
    libc = libc or Libc()
    arch = ARCHES.get(machine())
    if arch is None:
        return False
    action = c_uint32(RET_ERRNO)
    return libc.syscall(arch[2], SECCOMP_GET_ACTION_AVAIL, 0, byref(action)) == 0


def set_no_new_privs(libc: Libc) -> None:
    """Set PR_SET_NO_NEW_PRIVS so exec can never gain privileges (setuid, file caps)."""
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1) != 0:
        raise SeccompError(get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")


def install_filter(libc: Libc, *, network: bool, deny_sysv: bool = False) -> None:
    """Install the filter on this thread and verify that seccomp is enforcing.

    Raises:
        SeccompError: unsupported architecture, or the kernel refused the filter.
    """
    program = build_filter(machine(), network=network, deny_sysv=deny_sysv)
    fprog = _SockFprog(len(program) // 8, program)
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, byref(fprog)) != 0:
        raise SeccompError(get_errno(), "prctl(PR_SET_SECCOMP) failed")
    if libc.prctl(PR_GET_SECCOMP) != SECCOMP_MODE_FILTER:
        raise SeccompError(errno.EPERM, "seccomp filter is not enforced after installation")
