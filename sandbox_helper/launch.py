"""Planning a sandboxed launch on Linux: bubblewrap (stage 1) around the helper (stage 2).

Runs in the codex process (standard library only: `codex sandbox` is benchmarked). The
plan is an argv plus the paths to tidy up afterwards; the caller passes the command's own
environment on an inherited file descriptor (`--env-fd`) and starts the argv with an
empty environment, so nothing the user or the model put in the environment (LD_PRELOAD,
PYTHONPATH, ...) reaches bwrap or the helper interpreter before confinement.

Stage 1, bubblewrap: `/` read-only, writable roots bound read-write, `PROTECTED_SUBDIRS`
(`.git`, `.codex`, `.agents`, `.aws`; and a worktree's resolved gitdir and common dir)
re-bound read-only, fresh /dev and /proc, new user/pid/ipc/uts/cgroup (and, without network,
net) namespaces, a new session, death with the parent and no capabilities. The `.git` of a
repository enclosing the working directory (and its worktree gitdirs), CODEX_HOME and the
app-server socket directory (`/tmp/codex-daemon-<uid>`, when it exists) are re-bound
read-only too when they lie under a writable root. A protected path that does not exist is
covered by the sandbox's own empty read-only tmpfs, so it cannot be created; bubblewrap has
to create the mount point in the real tree, shared between sandboxes through
`sandbox_helper.placeholders` and removed by the last one on the machine
(`LaunchPlan.release`). One that is a symlink to nothing refuses the launch
(`ProtectedPathError`). What the core executes next time (the interpreter's prefix, the
three packages, bwrap) is re-bound read-only when it lies under a writable root.

Without user namespaces the helper runs directly (Landlock + seccomp only; see
`sandbox_helper.linux`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from sandbox_helper import placeholders
from sandbox_helper.bwrap import find_bwrap as find_bwrap  # re-exported for callers
from sandbox_helper.policy import PROTECTED_SUBDIRS, HelperPolicy, writable_roots

NO_USERNS_ENV = "CODEX_SANDBOX_NO_USERNS"
STAGE2_TARGET = "sandbox_helper.linux:main"
PACKAGES = ("codex_core", "codex_tui", "sandbox_helper")
NO_USERNS_WARNING = (
    "codex sandbox: user namespaces are unavailable, so commands run under Landlock + "
    "seccomp only: no private /proc, pid, IPC or mount namespaces, the protected names "
    "(.git, .agents, .codex, .aws) block new entries at the top of the workspace, and "
    "capabilities are not dropped"
)

_bytecode_checked: list[bool] = []


def package_root() -> str:
    """The directory holding the `codex_core`, `codex_tui` and `sandbox_helper` packages."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ensure_helper_bytecode() -> None:
    """Compile this package's modules where their bytecode is missing or stale, once.

    The stage-2 helper runs with `-B` under a read-only `/`, so it can never cache its
    own bytecode; an editable install ships none, and compiling the helper at every
    command costs ~7 ms. The unconfined front process does it instead (unless the user
    asked Python not to write bytecode).
    """
    if sys.dont_write_bytecode or _bytecode_checked:
        return
    _bytecode_checked.append(True)
    here = os.path.dirname(os.path.abspath(__file__))
    tag = sys.implementation.cache_tag
    try:
        names = [n for n in os.listdir(here) if n.endswith(".py")]
    except OSError:
        return
    for name in names:
        source = os.path.join(here, name)
        cached = os.path.join(here, "__pycache__", f"{name[:-3]}.{tag}.pyc")
        try:
            if os.stat(cached).st_mtime >= os.stat(source).st_mtime:
                continue
        except OSError:
            pass
        import py_compile

        try:
            py_compile.compile(source, cfile=cached, doraise=True)
        except (OSError, py_compile.PyCompileError):
            return  # a read-only installation: the helper compiles in memory, as before


def isolated_argv(python: str, root: str, target: str, args: list[str]) -> list[str]:
    """argv running `target` ("package.module:function") in an isolated interpreter.

    `-I` ignores PYTHON* variables, the user site and the script directory; `-S` skips
    site-packages and .pth hooks; `-B` writes no bytecode. The package root is appended
    to sys.path (after the standard library, so a module planted beside the packages
    cannot shadow a standard one).
    """
    module, _, function = target.partition(":")
    boot = (
        f"import sys;sys.path.append({root!r});"
        f"from {module} import {function} as m;sys.exit(m(sys.argv[1:]))"
    )
    return [python, "-I", "-S", "-B", "-c", boot, *args]


def _read_int(path: str) -> int | None:
    try:
        with open(path, "rb") as fh:
            return int(fh.read().strip() or b"0")
    except (OSError, ValueError):
        return None


def userns_available(env: dict[str, str] | None = None) -> bool:
    """Whether this process may create user namespaces (and the tests have not said no).

    Reads the sysctls that switch them off; `CODEX_SANDBOX_NO_USERNS=1` forces the
    Landlock + seccomp fallback (for tests and for hosts where bwrap misbehaves).
    """
    if (os.environ if env is None else env).get(NO_USERNS_ENV) == "1":
        return False
    if _read_int("/proc/sys/user/max_user_namespaces") == 0:
        return False
    if os.geteuid() != 0:
        if _read_int("/proc/sys/kernel/unprivileged_userns_clone") == 0:
            return False
        if _read_int("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1:
            return False
    return os.path.exists("/proc/self/ns/user")


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def git_metadata(root: str) -> list[str]:
    """Existing git/codex metadata paths of `root` to keep read-only.

    `.git` and `.codex` themselves, and for a worktree whose `.git` is a `gitdir:` file,
    the resolved gitdir and the common directory it shares (where hooks and config live).
    """
    found: list[str] = []
    for name in PROTECTED_SUBDIRS:
        path = os.path.join(root, name)
        if os.path.lexists(path):
            found.append(os.path.realpath(path))
    dot_git = os.path.join(root, ".git")
    if os.path.isfile(dot_git):
        try:
            with open(dot_git, encoding="utf-8", errors="replace") as fh:
                line = fh.readline().strip()
        except OSError:
            line = ""
        if line.startswith("gitdir:"):
            gitdir = os.path.realpath(os.path.join(root, line[7:].strip()))
            if os.path.isdir(gitdir):
                found.append(gitdir)
                try:
                    with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as fh:
                        common = fh.readline().strip()
                    found.append(os.path.realpath(os.path.join(gitdir, common)))
                except OSError:
                    pass
    return [p for p in dict.fromkeys(found) if os.path.exists(p)]


def codex_home() -> str:
    """CODEX_HOME of this codex process (config, rules, auth, hooks, sessions), resolved."""
    home = os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")
    return os.path.realpath(home)


def daemon_sockets() -> str:
    """Where this user's app-server sockets and their locks live (`codex app-server --listen
    unix://`, the daemon): re-bound read-only under a writable /tmp, so a command cannot
    remove or replace the daemon's socket or lock (connecting is refused by seccomp)."""
    return f"/tmp/codex-daemon-{os.getuid()}"


def enclosing_metadata(directory: str) -> list[str]:
    """Git/codex metadata of the directories above `directory` (an enclosing repository).

    A command run in a subdirectory of a repository must not rewrite that repository's
    `.git` (hooks, config) or its `.codex` when they lie under a writable root.
    """
    found: list[str] = []
    parent = os.path.dirname(directory)
    while parent != directory:
        found += git_metadata(parent)
        directory, parent = parent, os.path.dirname(parent)
    return found


def executed_paths(python: str, bwrap: str | None) -> list[str]:
    """What the core executes for every launch: interpreter prefixes, packages, bwrap."""
    root = package_root()
    paths = [sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(python))]
    paths += [os.path.join(root, name) for name in PACKAGES]
    if bwrap:
        paths.append(os.path.dirname(bwrap))
    return [p for p in dict.fromkeys(os.path.realpath(p) for p in paths) if os.path.exists(p)]


class ProtectedPathError(OSError):
    """A protected name (`.git`, `.codex`, `.agents`, `.aws`) at the top of a writable root is
    a symlink to nothing: the sandbox could neither re-bind its target read-only nor cover the
    name, and a command could create the target and write through the link, so nothing runs
    (codex-rust 0.169 refuses every symlinked protected path the same way)."""

    def __init__(self, path: str) -> None:
        """The message names `path`; one line."""
        super().__init__(
            f"cannot keep {path} read-only in the sandbox: it is a symlink to a path that "
            "does not exist"
        )


class LaunchPlan:
    """The argv to start (with an empty environment) and the placeholders it holds.

    Call `release` once the sandbox has ended (and only then): the last sandbox on the
    machine to release a placeholder removes it.
    """

    __slots__ = ("argv", "holds", "uses_bwrap")

    def __init__(self, argv: list[str], holds: list[placeholders.Hold], uses_bwrap: bool) -> None:
        """Hold the plan."""
        self.argv = argv
        self.holds = holds
        self.uses_bwrap = uses_bwrap

    @property
    def placeholders(self) -> list[str]:
        """The absent protected paths this sandbox covers with its own tmpfs."""
        return [h.path for h in self.holds]

    def release(self) -> None:
        """Give up this sandbox's placeholders (removing those no other sandbox uses)."""
        holds, self.holds = self.holds, []
        for held in holds:
            held.release()


def plan_launch(
    command: list[str],
    policy: HelperPolicy,
    cwd: str,
    command_env: dict[str, str],
    *,
    env_fd: int | None,
    python: str | None = None,
    bwrap: str | None = None,
    use_userns: bool | None = None,
    controlling_tty: bool = False,
    share_placeholders: bool = True,
    writable_files: Sequence[tuple[int, str]] = (),
) -> LaunchPlan:
    """Plan the launch of `command` under `policy`, whose relative paths resolve against `cwd`.

    The command runs in the directory the argv is started in. With `controlling_tty`
    the helper makes the terminal on its stdin the command's controlling terminal (a PTY
    session: bubblewrap's `--new-session` left the command without one). Without
    `share_placeholders` the mount points of absent protected paths are not claimed in the
    registry (nothing holds them for this sandbox): only for an argv that a caller inspects
    rather than runs. `writable_files` are (descriptor, path) pairs of single files made
    writable on top of the policy (an approved patch outside the writable roots): bound by
    descriptor, so a link swapped into the path later cannot redirect the grant; the caller
    keeps the descriptors open and inheritable until the launch.
    """
    python = python or sys.executable
    ensure_helper_bytecode()
    if use_userns is None:
        use_userns = userns_available()
    bwrap = bwrap or (find_bwrap() if use_userns else None)
    real_cwd = os.path.realpath(cwd)
    roots = [
        os.path.realpath(r.root)
        for r in writable_roots(policy, real_cwd, command_env)
        if os.path.isdir(r.root)
    ]
    roots = list(dict.fromkeys(roots))
    sharing = share_placeholders and use_userns and bwrap is not None
    registry = placeholders.registry_dir() if sharing else None
    protected: list[str] = []
    absent: list[str] = []
    for root in roots:
        for name in PROTECTED_SUBDIRS:
            path = os.path.join(root, name)
            if os.path.islink(path) and not os.path.exists(path):
                raise ProtectedPathError(path)
            if not os.path.lexists(path) or placeholders.is_registered(registry, path):
                absent.append(path)
        protected += git_metadata(root)
    protected += enclosing_metadata(real_cwd)
    home = codex_home()
    if not os.path.lexists(home):
        absent.append(home)
    protected += [home, daemon_sockets(), *executed_paths(python, bwrap)]
    covered = set(absent)
    protected = [
        p
        for p in dict.fromkeys(protected)
        if p not in covered and os.path.exists(p) and any(_under(p, r) for r in roots)
    ]
    # A protected path covers whatever lies beneath it, absent names included.
    absent = [
        p
        for p in dict.fromkeys(absent)
        if any(_under(p, r) for r in roots)
        and os.access(os.path.dirname(p), os.W_OK)
        and not any(_under(p, q) for q in protected)
    ]
    stage2: list[str] = []
    if env_fd is not None:
        stage2 += ["--env-fd", str(env_fd)]
    if policy.has_network:
        stage2.append("--network")
    if controlling_tty:
        stage2.append("--ctty")
    for root in roots:
        stage2 += ["--writable", root]
    if not use_userns or bwrap is None:
        for fd, _ in writable_files:
            stage2 += ["--writable-fd", str(fd)]
        for path in protected + absent:
            stage2 += ["--fence", path]
        stage2 += ["--direct", "--", *command]
        return LaunchPlan(isolated_argv(python, package_root(), STAGE2_TARGET, stage2), [], False)
    # No --disable-userns: the stage-2 seccomp filter refuses new user namespaces for less.
    argv = [bwrap, "--new-session", "--die-with-parent", "--unshare-user"]
    argv += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup"]
    if not policy.has_network:
        argv.append("--unshare-net")
    argv += ["--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for root in sorted(roots, key=len):
        argv += ["--bind", root, root]
    for path in sorted(protected, key=len):
        argv += ["--ro-bind", path, path]
    holds = _hold_all(registry, absent)
    for path in absent:
        argv += ["--tmpfs", path, "--remount-ro", path]
    for fd, path in writable_files:
        argv += ["--bind-fd", str(fd), path]
        stage2 += ["--writable", path]
    argv.append("--")  # bwrap keeps the working directory it was started in
    argv += isolated_argv(python, package_root(), STAGE2_TARGET, [*stage2, "--", *command])
    return LaunchPlan(argv, holds, True)


def _hold_all(registry: str | None, paths: list[str]) -> list[placeholders.Hold]:
    """Claim every placeholder for this sandbox (none without a registry: then they stay).

    Raises:
        OSError: a claim failed (those already taken are released).
    """
    holds: list[placeholders.Hold] = []
    if registry is None:
        return holds
    try:
        for path in paths:
            holds.append(placeholders.hold(registry, path))
    except BaseException:
        for held in holds:
            held.release()
        raise
    return holds


def encode_env(env: dict[str, str] | dict[bytes, bytes]) -> bytes:
    """The environment as NUL-terminated `KEY=VALUE` records (what `--env-fd` carries)."""
    out = bytearray()
    for key, value in env.items():
        k = key if isinstance(key, bytes) else key.encode("utf-8", "surrogateescape")
        v = value if isinstance(value, bytes) else value.encode("utf-8", "surrogateescape")
        out += k + b"=" + v + b"\0"
    return bytes(out)


def env_memfd(env: dict[str, str] | dict[bytes, bytes]) -> int:
    """An inheritable memfd holding `env`, positioned at its start."""
    fd = os.memfd_create("codex-sandbox-env", 0)
    data = encode_env(env)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.lseek(fd, 0, os.SEEK_SET)
    os.set_inheritable(fd, True)
    return fd
