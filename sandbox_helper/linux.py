"""The helper's second stage: no_new_privs, Landlock and seccomp, then exec the command.

Started by the core as an isolated interpreter (`python -I -S -B`, see
`sandbox_helper.launch`), normally inside bubblewrap, with an empty environment; the
command's own environment arrives on an inherited file descriptor:

    stage2 [--env-fd N] [--network] [--ctty] [--writable DIR]... [--writable-fd N]...
           [--fence PATH]... [--direct] -- COMMAND [ARGS...]

Inside bubblewrap the namespaces and mounts are the file-system sandbox, and Landlock
(where the kernel has it) is a second layer: read and execute everywhere, writes only
beneath the writable roots and the private /dev; on ABI 6+ abstract unix sockets and
signals are scoped to the sandbox. `--direct` is the no-user-namespace fallback: then
Landlock is the only file-system layer and is required; fenced paths (`.git`, `.codex`,
what the core executes) are carved out of the writable roots by granting writes on
every sibling instead of the root, and seccomp also denies System V IPC. Anything that
cannot be enforced makes the helper refuse rather than run the command.

Start-up time counts here (this runs before every sandboxed command), so the helper
imports neither `os` nor `ctypes`: `posix` is already loaded by the interpreter, and
`sandbox_helper._libc` reaches `syscall`/`prctl`/`ioctl` through `_ctypes`.
"""

import posix
import sys

from sandbox_helper import landlock, seccomp
from sandbox_helper._libc import Libc, get_errno

TYPE_CHECKING = False  # `typing` is not imported at run time (start-up cost)
if TYPE_CHECKING:
    from typing import NoReturn

PROG = "codex-linux-sandbox"
USAGE = (
    f"usage: {PROG} [--env-fd N] [--network] [--ctty] [--writable DIR]... [--writable-fd N]... "
    "[--fence PATH]... [--direct] -- COMMAND [ARGS...]"
)
HOW_TO_PROCEED = (
    "run with `--sandbox danger-full-access` (no sandbox), or use a Linux kernel with user "
    "namespaces or Landlock enabled"
)
TIOCSCTTY = 0x540E  # asm-generic: x86_64 and aarch64, the machines seccomp.ARCHES covers
DEFAULT_PATH = b"/bin:/usr/bin"  # os.defpath, for a command environment without PATH
S_IFMT = 0o170000
S_IFDIR = 0o040000
S_IFLNK = 0o120000


class UsageError(ValueError):
    """Bad helper command line."""


class SandboxSetupError(RuntimeError):
    """The sandbox could not be enforced; the command must not run."""


class Stage2Args:
    """Parsed helper command line."""

    __slots__ = (
        "env_fd",
        "network",
        "ctty",
        "writable",
        "writable_fds",
        "fences",
        "direct",
        "command",
    )

    def __init__(self) -> None:
        """Defaults: no env fd, no network, nothing writable, inside bubblewrap."""
        self.env_fd: int | None = None
        self.network = False
        self.ctty = False
        self.writable: list[str] = []
        self.writable_fds: list[int] = []
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
        if flag not in ("--env-fd", "--writable", "--writable-fd", "--fence") or i + 1 >= len(argv):
            raise UsageError(f"unknown argument or missing value: {flag!r}")
        value = argv[i + 1]
        if flag in ("--env-fd", "--writable-fd"):
            if not value.isdigit():
                raise UsageError(f"{flag} needs a file descriptor number")
            if flag == "--env-fd":
                args.env_fd = int(value)
            else:
                args.writable_fds.append(int(value))
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
        while chunk := posix.read(fd, 65536):
            chunks.append(chunk)
    finally:
        posix.close(fd)
    env: dict[bytes, bytes] = {}
    for record in b"".join(chunks).split(b"\0"):
        key, eq, value = record.partition(b"=")
        if eq and key:
            env[key] = value
    return env


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _join(root: str, name: str) -> str:
    """`os.path.join` for a directory entry's name."""
    return root + name if root.endswith("/") else root + "/" + name


def _file_type(path: str, *, follow_symlinks: bool) -> int:
    """The S_IFMT bits of `path`'s mode, 0 when it cannot be examined."""
    try:
        return posix.stat(path, follow_symlinks=follow_symlinks).st_mode & S_IFMT
    except (OSError, ValueError):
        return 0


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
        names = posix.listdir(root)
    except OSError:
        return
    for name in names:
        child = _join(root, name)
        if child in inside or _file_type(child, follow_symlinks=False) == S_IFLNK:
            continue
        is_dir = _file_type(child, follow_symlinks=True) == S_IFDIR
        if is_dir and any(_under(f, child) for f in inside):
            _grant_except(ruleset, child, inside)
        else:
            ruleset.allow(child, ruleset.handled)


def apply_sandbox(args: Stage2Args, libc: Libc) -> None:
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
            for fd in args.writable_fds:  # single approved files, opened without following links
                ruleset.allow_fd(fd, ruleset.handled)
                posix.close(fd)
            ruleset.restrict_self()
        seccomp.install_filter(libc, network=args.network, deny_sysv=args.direct)
    except OSError as err:
        raise SandboxSetupError(f"{err.strerror or err}; {HOW_TO_PROCEED}") from None


def acquire_controlling_tty(libc: Libc) -> None:
    """Make the terminal on stdin this session's controlling terminal (PTY sessions).

    bubblewrap's `--new-session` (which keeps a sandboxed command away from the user's
    own terminal) leaves the command without one; the terminal on stdin is the PTY codex
    opened for this command alone. TIOCSTI stays denied by the seccomp filter.

    Raises:
        OSError: the terminal could not be made the controlling one.
    """
    if not posix.isatty(0) or seccomp.machine() not in seccomp.ARCHES:
        return  # (on another machine the sandbox is refused right after this)
    if posix.getsid(0) != posix.getpid():
        # Under a pid namespace bubblewrap's init called setsid and forked us: lead our own.
        posix.setsid()
    if libc.ioctl(0, TIOCSCTTY, 0) != 0:
        err = get_errno()
        raise OSError(err, f"ioctl(TIOCSCTTY): {posix.strerror(err)}")


def _execvpe(file: str, args: list[str], env: dict[bytes, bytes] | None) -> "NoReturn":
    """`os.execvp` / `os.execvpe`: search PATH (of `env`, else of this process) for `file`.

    Like `os._execvpe`, raises the first error other than "not found" met on the way
    (a found but unrunnable file), else the last one.
    """
    if "/" in file:
        _exec(file, args, env)
    search = (env if env is not None else posix.environ).get(b"PATH", DEFAULT_PATH)
    name = file.encode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())
    saved: OSError | None = None
    last: OSError | None = None
    for entry in search.split(b":"):
        path = entry + name if not entry or entry.endswith(b"/") else entry + b"/" + name
        try:
            _exec(path, args, env)
        except (FileNotFoundError, NotADirectoryError) as err:
            last = err
        except OSError as err:
            last = err
            if saved is None:
                saved = err
    raise saved or last or FileNotFoundError(2, "No such file or directory", file)


def _exec(path: str | bytes, args: list[str], env: dict[bytes, bytes] | None) -> "NoReturn":
    if env is None:
        posix.execv(path, args)
    else:
        posix.execve(path, args, env)


def exec_command(command: list[str], env: dict[bytes, bytes] | None = None) -> int:
    """Replace this process with `command`; returns 127/126 only if exec fails."""
    try:
        _execvpe(command[0], command, env)
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
        libc = Libc()
        if args.ctty:
            acquire_controlling_tty(libc)
        apply_sandbox(args, libc)
    except SandboxSetupError as err:
        sys.stderr.write(f"{PROG}: refusing to run the command unsandboxed: {err}\n")
        return 1
    return exec_command(args.command, env)
