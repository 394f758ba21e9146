"""`codex sandbox linux|macos [--full-auto] [-c key=value] -- CMD...` and `codex sandbox --check`.

Kept standard-library only (no pydantic, no codex_core): it is benchmarked, and on Linux
it confines its own process and execs the command without starting a second interpreter.
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

USAGE = """usage: codex sandbox linux [--full-auto] [-c key=value]... -- COMMAND [ARGS...]
       codex sandbox macos [--full-auto] [-c key=value]... -- COMMAND [ARGS...]
       codex sandbox --check

Runs COMMAND under the sandbox codex uses for model commands: read-only by default,
workspace-write with --full-auto. `-c sandbox_workspace_write.KEY=VALUE` (TOML value)
overrides writable_roots, network_access, exclude_slash_tmp or exclude_tmpdir_env_var."""

PLATFORM_ALIASES = {"linux": "linux", "landlock": "linux", "macos": "macos", "seatbelt": "macos"}
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


def _config_table() -> dict[str, object]:
    """The `[sandbox_workspace_write]` table of `$CODEX_HOME/config.toml`, if any."""
    home = os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")
    path = os.path.join(home, "config.toml")
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return {}
    import tomllib

    try:
        table = tomllib.loads(data.decode("utf-8")).get(TABLE, {})
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise CommandError(f"{path} is not valid TOML ({err}); fix or remove it") from None
    return table if isinstance(table, dict) else {}


def parse_command_line(argv: list[str]) -> tuple[str, bool, list[str], list[str]]:
    """Split argv into (platform, full_auto, overrides, command).

    Raises:
        CommandError: unknown platform or option, or no command.
    """
    if not argv or argv[0] not in PLATFORM_ALIASES:
        raise CommandError("expected `linux`, `macos` or `--check` after `codex sandbox`")
    platform, rest = PLATFORM_ALIASES[argv[0]], argv[1:]
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
        raise CommandError("no command given; usage: codex sandbox linux -- COMMAND [ARGS...]")
    return platform, full_auto, overrides, command


def build_policy(full_auto: bool, overrides: list[str]) -> HelperPolicy:
    """Read-only, or workspace-write (config table + `-c` overrides) with `--full-auto`.

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
    if not full_auto:
        return HelperPolicy(READ_ONLY)
    settings.update({k: v for k, v in _config_table().items() if k in TABLE_KEYS})
    for key, value in parsed:
        table, _, name = key.partition(".")
        if table == TABLE and name in TABLE_KEYS:
            settings[name] = value
    try:
        return policy_from_mapping({"mode": WORKSPACE_WRITE, **settings})
    except PolicyError as err:
        raise CommandError(f"invalid [{TABLE}] setting: {err}") from None


def run_check() -> int:
    """Print what sandboxing this machine supports; 0 when the platform sandbox is usable."""
    from sandbox_helper.seatbelt import SANDBOX_EXEC

    usable = False
    if sys.platform.startswith("linux"):
        from sandbox_helper import landlock, seccomp

        abi = landlock.abi_version()
        has_filter = seccomp.filter_available()
        print(f"Landlock: {'ABI ' + str(abi) if abi else 'not available'}")
        print(f"seccomp: {'filters available' if has_filter else 'not available'}")
        usable = abi >= 1 and has_filter
    else:
        print("Landlock: not available (not Linux)")
        print("seccomp: not available (not Linux)")
    if sys.platform == "darwin":
        has_exec = os.path.exists(SANDBOX_EXEC)
        print(f"macOS sandbox-exec: {SANDBOX_EXEC if has_exec else 'not found'}")
        usable = has_exec
    else:
        print("macOS sandbox-exec: not available (not macOS)")
    print(
        f"sandbox: {'usable' if usable else 'NOT usable; commands need --sandbox danger-full-access'}"
    )
    return 0 if usable else 1


def _run_linux(policy: HelperPolicy, command: list[str]) -> int:
    if not sys.platform.startswith("linux"):
        raise CommandError("`codex sandbox linux` only runs on Linux; use `codex sandbox macos`")
    from sandbox_helper.linux import SandboxSetupError, apply_sandbox, exec_command

    if not policy.has_network:
        os.environ[NETWORK_DISABLED_ENV] = "1"
    try:
        apply_sandbox(policy, os.getcwd(), os.environ)
    except SandboxSetupError as err:
        sys.stderr.write(f"codex sandbox: refusing to run the command unsandboxed: {err}\n")
        return 1
    return exec_command(command)


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
        policy = build_policy(full_auto, overrides)
        if platform == "linux":
            return _run_linux(policy, command)
        return _run_macos(policy, command)
    except CommandError as err:
        sys.stderr.write(f"codex sandbox: {err}\n")
        return 2
