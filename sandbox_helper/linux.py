"""The helper's second stage: no_new_privs, Landlock and seccomp, then exec the command.

Started by the core as an isolated interpreter (`python -I -S -B`, see
`sandbox_helper.launch`), normally inside bubblewrap, with an empty environment; the
command's own environment arrives on an inherited file descriptor:

    stage2 [--env-fd N] [--network] [--ctty] [--writable DIR]... [--fence PATH]...
           [--direct] -- COMMAND [ARGS...]

Inside bubblewrap the namespaces and mounts are the file-system sandbox, and Landlock
(where the kernel has it) is a second layer: read and execute everywhere, writes only
beneath the writable roots and the private /dev; on ABI 6+ abstract unix sockets and
signals are scoped to the sandbox. `--direct` is the no-user-namespace fallback: then
Landlock is the only file-system layer and is required; fenced paths (`.git`, `.codex`,
what the core executes) are carved out of the writable roots by granting writes on
every sibling instead of the root, and seccomp also denies System V IPC. Anything that
cannot be enforced makes the helper refuse rather than run the command.
"""

from __future__ import annotations

import ctypes
import os
import sys

from sandbox_helper import landlock, seccomp

PROG = "codex-linux-sandbox"
USAGE = (
    f"usage: {PROG} [--env-fd N] [--network] [--ctty] [--writable DIR]... [--fence PATH]... "
    "[--direct] -- COMMAND [ARGS...]"
)
HOW_TO_PROCEED = (
    "run with `--sandbox danger-full-access` (no sandbox), or use a Linux kernel with user "
    "namespaces or Landlock enabled"
)


class UsageError(ValueError):
    """Bad helper command line."""


class SandboxSetupError(RuntimeError):
    """The sandbox could not be enforced; the command must not run."""


class Stage2Args:
    """Parsed helper command line."""

    __slots__ = ("env_fd", "network", "ctty", "writable", "fences", "direct", "command")

    def __init__(self) -> None:
        """Defaults: no env fd, no network, nothing writable, inside bubblewrap."""
        self.env_fd: int | None = None
        self.network = False
        self.ctty = False
        self.writable: list[str] = []
        self.fences: list[str] = []
        self.direct = False
        self.command: list[str] = []


def parse_args(argv: list[str]) -> Stage2Args:
    """Parse the stage-2 command line.

    Raises:
        UsageError: an unknown flag, a missing value or no command.
    """
    args = Stage2Args()
    i = 0
    while i < len(argv) and argv[i] != "--":
        flag = argv[i]
        if flag in ("--network", "--direct", "--ctty"):
            setattr(args, flag[2:], True)
            i += 1
            continue
        if flag not in ("--env-fd", "--writable", "--fence") or i + 1 >= len(argv):
            raise UsageError(f"unknown argument or missing value: {flag!r}")
        value = argv[i + 1]
        if flag == "--env-fd":
            if not value.isdigit():
                raise UsageError("--env-fd needs a file descriptor number")
            args.env_fd = int(value)
        elif flag == "--writable":
            args.writable.append(value)
        else:
            args.fences.append(value)
        i += 2
    args.command = argv[i + 1 :]
    if not args.command:
        raise UsageError("no command given after --")
    return args


def read_env(fd: int) -> dict[bytes, bytes]:
    """Read NUL-terminated KEY=VALUE records from `fd`, then close it."""
    chunks = []
    try:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    finally:
        os.close(fd)
    env: dict[bytes, bytes] = {}
    for record in b"".join(chunks).split(b"\0"):
        key, eq, value = record.partition(b"=")
        if eq and key:
            env[key] = value
    return env


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _grant_except(ruleset: landlock.Ruleset, root: str, fences: list[str]) -> None:
    """Grant every right beneath `root` except beneath the fenced paths.

    Landlock rules only add rights, so a fenced path inside `root` is carved out by
    granting each sibling on the way down instead of `root` itself: new entries cannot
    be created in the directories that lead to a fence.
    """
    inside = [f for f in fences if _under(f, root) and f != root]
    if not inside:
        ruleset.allow(root, ruleset.handled)
        return
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        child = os.path.join(root, name)
        if child in inside or os.path.islink(child):
            continue
        if os.path.isdir(child) and any(_under(f, child) for f in inside):
            _grant_except(ruleset, child, inside)
        else:
            ruleset.allow(child, ruleset.handled)


def apply_sandbox(args: Stage2Args, libc: ctypes.CDLL) -> None:
    """Confine this process (and everything it execs) as `args` describe.

    Raises:
        SandboxSetupError: a required layer is unavailable or was not enforced.
    """
    abi = landlock.abi_version(libc)
    if args.direct and abi < 1:
        raise SandboxSetupError(
            "neither user namespaces nor Landlock are available on this kernel; " + HOW_TO_PROCEED
        )
    if not seccomp.filter_available(libc):
        raise SandboxSetupError(
            f"seccomp filters are not available on this kernel or architecture; {HOW_TO_PROCEED}"
        )
    try:
        seccomp.set_no_new_privs(libc)
        if abi >= 1:
            ruleset = landlock.Ruleset(abi, restrict_tcp=not args.network, scoped=True, libc=libc)
            ruleset.allow("/", landlock.READ_ACCESS)
            if args.direct:
                ruleset.allow("/dev/null", landlock.FILE_ACCESS)
            else:
                ruleset.allow("/dev", ruleset.handled)  # bubblewrap's private /dev
            for root in args.writable:
                _grant_except(ruleset, root, args.fences if args.direct else [])
            ruleset.restrict_self()
        seccomp.install_filter(libc, network=args.network, deny_sysv=args.direct)
    except OSError as err:
        raise SandboxSetupError(f"{err.strerror or err}; {HOW_TO_PROCEED}") from None


def acquire_controlling_tty() -> None:
    """Make the terminal on stdin this session's controlling terminal (PTY sessions).

    bubblewrap's `--new-session` (which keeps a sandboxed command away from the user's
    own terminal) leaves the command without one; the terminal on stdin is the PTY codex
    opened for this command alone. TIOCSTI stays denied by the seccomp filter.
    """
    import fcntl
    import termios

    if not os.isatty(0):
        return
    if os.getsid(0) != os.getpid():
        # Under a pid namespace bubblewrap's init called setsid and forked us: lead our own.
        os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def exec_command(command: list[str], env: dict[bytes, bytes] | None = None) -> int:
    """Replace this process with `command`; returns 127/126 only if exec fails."""
    try:
        if env is None:
            os.execvp(command[0], command)
        else:
            os.execvpe(command[0], command, env)
    except FileNotFoundError:
        sys.stderr.write(f"{PROG}: command not found: {command[0]}\n")
        return 127
    except OSError as err:
        sys.stderr.write(f"{PROG}: cannot run {command[0]}: {err.strerror or err}\n")
        return 126


def main(argv: list[str]) -> int:
    """Stage-2 entry point; returns an exit code only when exec did not happen."""
    try:
        args = parse_args(argv)
    except UsageError as err:
        sys.stderr.write(f"{PROG}: {err}\n{USAGE}\n")
        return 2
    env = read_env(args.env_fd) if args.env_fd is not None else {}
    try:
        if args.ctty:
            acquire_controlling_tty()
        apply_sandbox(args, ctypes.CDLL(None, use_errno=True))
    except SandboxSetupError as err:
        sys.stderr.write(f"{PROG}: refusing to run the command unsandboxed: {err}\n")
        return 1
    return exec_command(args.command, env)
