"""`codex sandbox [-c key=value]... -- CMD`, `codex sandbox linux|macos [--full-auto] -- CMD`.

Also `codex sandbox --check`. Kept standard-library only (no pydantic; from codex_core only
the standard-library CODEX_HOME lookup): it is benchmarked. On Linux it execs bubblewrap
directly (see `sandbox_helper.launch`) with an empty environment, handing the command's
environment over on a memfd.
"""

from __future__ import annotations

import os
import sys

from sandbox_helper.policy import (
    READ_ONLY,
    WORKSPACE_WRITE,
    HelperPolicy,
    PolicyError,
    policy_from_mapping,
)

USAGE = """usage: codex sandbox [-c key=value]... [--] COMMAND [ARGS...]
       codex sandbox linux [--full-auto] [-c key=value]... -- COMMAND [ARGS...]
       codex sandbox macos [--full-auto] [-c key=value]... -- COMMAND [ARGS...]
       codex sandbox --check

Runs COMMAND under the sandbox codex uses for model commands. The first form takes the
policy from config.toml (`sandbox_mode`, default read-only) and `-c sandbox_mode=...`;
the platform forms are read-only, or workspace-write with --full-auto.
`-c sandbox_workspace_write.KEY=VALUE` (TOML value) overrides writable_roots,
network_access, exclude_slash_tmp or exclude_tmpdir_env_var. `--check` prints the layers
this machine enforces."""

PLATFORM_ALIASES = {"linux": "linux", "landlock": "linux", "macos": "macos", "seatbelt": "macos"}
MODES = ("read-only", "workspace-write", "danger-full-access")
TABLE = "sandbox_workspace_write"
TABLE_KEYS = ("writable_roots", "network_access", "exclude_slash_tmp", "exclude_tmpdir_env_var")
NETWORK_DISABLED_ENV = "CODEX_SANDBOX_NETWORK_DISABLED"


class CommandError(Exception):
    """A bad command line or config value; the message is one line with the fix."""


def _parse_toml_value(raw: str) -> object:
    import tomllib

    try:
        return tomllib.loads(f"value = {raw}")["value"]
    except tomllib.TOMLDecodeError:
        return raw  # like the Codex CLI: an unparsable value is taken as a plain string


def _config() -> dict[str, object]:
    """`$CODEX_HOME/config.toml` as a table (empty when absent)."""
    from codex_core.frontend.home import CodexHomeError, codex_home_dir

    try:
        path = os.path.join(codex_home_dir(), "config.toml")
    except CodexHomeError as err:
        raise CommandError(str(err)) from None
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return {}
    import tomllib

    try:
        return tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise CommandError(f"{path} is not valid TOML ({err}); fix or remove it") from None


def parse_command_line(argv: list[str]) -> tuple[str, bool, list[str], list[str]]:
    """Split argv into (platform, full_auto, overrides, command).

    Raises:
        CommandError: unknown platform or option, or no command.
    """
    if not argv:
        raise CommandError(
            "expected a command, `linux`, `macos` or `--check` after `codex sandbox`"
        )
    if argv[0] in PLATFORM_ALIASES:
        platform, rest = PLATFORM_ALIASES[argv[0]], argv[1:]
    else:  # the Codex CLI form: policy from config, this machine's platform
        platform, rest = "", argv
    full_auto, overrides = False, []
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg == "--":
            i += 1
            break
        if arg == "--full-auto":
            full_auto = True
        elif arg in ("-c", "--config"):
            if i + 1 >= len(rest):
                raise CommandError(f"{arg} needs a key=value argument")
            i += 1
            overrides.append(rest[i])
        elif arg.startswith(("-c=", "--config=")):
            overrides.append(arg.partition("=")[2])
        elif arg.startswith("-"):
            raise CommandError(f"unknown option {arg!r}; see `codex sandbox --help`")
        else:
            break
        i += 1
    command = rest[i:]
    if not command:
        raise CommandError("no command given; usage: codex sandbox [-c key=value]... -- COMMAND")
    return platform, full_auto, overrides, command


def build_policy(full_auto: bool, overrides: list[str], from_config: bool = False) -> HelperPolicy:
    """The policy: read-only, or workspace-write (config table + `-c`) with `--full-auto`.

    With `from_config` (the Codex CLI form) the mode is `sandbox_mode` from config.toml or
    `-c sandbox_mode=...` (read-only when neither says).

    Raises:
        CommandError: a `-c` override is malformed or has the wrong type.
    """
    settings: dict[str, object] = {}
    parsed: list[tuple[str, object]] = []
    for item in overrides:
        key, eq, raw = item.partition("=")
        if not eq or not key.strip():
            raise CommandError(f"-c expects key=value, got {item!r}")
        parsed.append((key.strip(), _parse_toml_value(raw.strip())))
    config = _config() if full_auto or from_config else {}
    mode: object = WORKSPACE_WRITE if full_auto else READ_ONLY
    if from_config and not full_auto:
        mode = config.get("sandbox_mode", READ_ONLY)
        for key, value in parsed:
            if key == "sandbox_mode":
                mode = value
        if mode not in MODES:
            raise CommandError(f"sandbox_mode must be one of {', '.join(MODES)}, got {mode!r}")
    if mode != WORKSPACE_WRITE:
        return HelperPolicy(str(mode))
    table = config.get(TABLE, {})
    settings.update(
        {k: v for k, v in table.items() if k in TABLE_KEYS} if isinstance(table, dict) else {}
    )
    for key, value in parsed:
        table, _, name = key.partition(".")
        if table == TABLE and name in TABLE_KEYS:
            settings[name] = value
    try:
        return policy_from_mapping({"mode": WORKSPACE_WRITE, **settings})
    except PolicyError as err:
        raise CommandError(f"invalid [{TABLE}] setting: {err}") from None


def linux_layers() -> tuple[list[str], bool]:
    """Lines describing the Linux layers this machine enforces, and whether it can sandbox."""
    from sandbox_helper import landlock, launch, seccomp
    from sandbox_helper.bwrap import _version as bwrap_version

    bwrap = launch.find_bwrap()
    userns = launch.userns_available()
    abi = landlock.abi_version()
    has_filter = seccomp.filter_available()
    version = ".".join(map(str, bwrap_version(bwrap))) if bwrap else ""
    lines = [
        f"bubblewrap: {bwrap + ' (' + version + ')' if bwrap else 'not found'}",
        f"user namespaces: {'available' if userns else 'not available'}",
        f"Landlock: {'ABI ' + str(abi) if abi else 'not available'}"
        + (" (abstract unix sockets and signals scoped)" if abi >= landlock.SCOPE_ABI else ""),
        f"seccomp: {'filters available' if has_filter else 'not available'}",
    ]
    layers = []
    if bwrap and userns:
        layers.append(
            "bubblewrap (read-only /, user/pid/ipc/uts/cgroup/net namespaces, new session, "
            "no capabilities)"
        )
    if has_filter:
        layers.append("no_new_privs + seccomp (network, ptrace, io_uring, TIOCSTI/TIOCLINUX)")
    if abi:
        layers.append(f"Landlock ABI {abi}")
    usable = has_filter and bool((bwrap and userns) or abi)
    if usable and not (bwrap and userns):
        lines.append(launch.NO_USERNS_WARNING.partition(": ")[2])
    lines.append(f"enforced layers: {' + '.join(layers) if usable else 'none'}")
    return lines, usable


def run_check() -> int:
    """Print what sandboxing this machine enforces; 0 when the platform sandbox is usable."""
    from sandbox_helper.seatbelt import SANDBOX_EXEC

    usable = False
    if sys.platform.startswith("linux"):
        lines, usable = linux_layers()
        print("\n".join(lines))
    elif sys.platform == "darwin":
        usable = os.path.exists(SANDBOX_EXEC)
        print(f"macOS sandbox-exec: {SANDBOX_EXEC if usable else 'not found'}")
    print(
        f"sandbox: {'usable' if usable else 'NOT usable; commands need --sandbox danger-full-access'}"
    )
    return 0 if usable else 1


def _run_linux(policy: HelperPolicy, command: list[str]) -> int:
    if not sys.platform.startswith("linux"):
        raise CommandError("`codex sandbox linux` only runs on Linux; use `codex sandbox macos`")
    if policy.has_full_disk_write:
        return _exec(command[0], command, None)
    from sandbox_helper import launch

    env = dict(os.environb)
    if not policy.has_network:
        env[NETWORK_DISABLED_ENV.encode()] = b"1"
    fd = launch.env_memfd(env)
    try:
        plan = launch.plan_launch(command, policy, os.getcwd(), dict(os.environ), env_fd=fd)
    except launch.ProtectedPathError as err:  # exit 1 with one line, as 0.169
        os.close(fd)
        sys.stderr.write(f"codex sandbox: {err}\n")
        return 1
    if not plan.uses_bwrap:
        sys.stderr.write(launch.NO_USERNS_WARNING + "\n")
    if not plan.holds:
        return _exec(plan.argv[0], plan.argv, {})
    # bwrap creates mount points for absent protected paths: hold them while it runs.
    pid = os.fork()
    if pid == 0:
        try:
            os.execve(plan.argv[0], plan.argv, {})
        finally:
            os._exit(127)
    os.close(fd)
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _, status = os.waitpid(pid, 0)
    plan.release()
    return os.waitstatus_to_exitcode(status) % 256


def _exec(path: str, argv: list[str], env: dict[str, str] | None) -> int:
    try:
        if env is None:
            os.execvp(path, argv)
        os.execve(path, argv, env)
    except OSError as err:
        raise CommandError(f"cannot run {path}: {err.strerror or err}") from None
    return 1  # unreachable: exec either replaces the process or raises


def _run_macos(policy: HelperPolicy, command: list[str]) -> int:
    from sandbox_helper.seatbelt import SANDBOX_EXEC, seatbelt_argv

    if sys.platform != "darwin" or not os.path.exists(SANDBOX_EXEC):
        raise CommandError(f"`codex sandbox macos` needs macOS with {SANDBOX_EXEC}")
    env = dict(os.environ, CODEX_SANDBOX="seatbelt")
    if not policy.has_network:
        env[NETWORK_DISABLED_ENV] = "1"
    argv = seatbelt_argv(command, policy, os.getcwd(), env)
    try:
        os.execve(SANDBOX_EXEC, argv, env)
    except OSError as err:
        raise CommandError(f"cannot run {SANDBOX_EXEC}: {err.strerror or err}") from None
    return 1  # unreachable: execve either replaces the process or raises


def main(argv: list[str]) -> int:
    """Entry for everything after `codex sandbox`; returns the command's exit status."""
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if argv and argv[0] == "--check":
        return run_check()
    try:
        platform, full_auto, overrides, command = parse_command_line(argv)
        policy = build_policy(full_auto, overrides, from_config=not platform)
        if not platform:
            platform = "macos" if sys.platform == "darwin" else "linux"
        if platform == "linux":
            return _run_linux(policy, command)
        return _run_macos(policy, command)
    except CommandError as err:
        sys.stderr.write(f"codex sandbox: {err}\n")
        return 2
