"""`codex-linux-sandbox`: confine this process with Landlock + seccomp, then exec the command.

Usage: codex-linux-sandbox --sandbox-policy-cwd DIR --sandbox-policy JSON -- CMD...

Steps: (1) if a writable root holds `.git` or `.codex`, enter a private user + mount
namespace and bind-mount those directories read-only onto themselves; (2) set
no_new_privs; (3) Landlock: read + execute on `/`, full access on `/dev/null` and every
writable root; (4) seccomp: EPERM for network syscalls (AF_UNIX sockets excepted), ptrace
and io_uring when the policy has no network; (5) execvp.

Landlock rules only add rights beneath a path, so a writable root cannot exclude its
`.git`. The read-only bind mount does the subtraction instead (writes there fail with
EROFS), and Landlock forbids the sandboxed command from unmounting it. When user
namespaces are unavailable, such a root falls back to granting write on each of its
children except the protected ones; then existing files directly in the root stay
writable but new entries cannot be created or removed at the root's top level.
Anything missing (Landlock, seccomp) makes the helper refuse rather than run unconfined.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Mapping

from sandbox_helper import landlock, mountns, seccomp
from sandbox_helper.policy import HelperPolicy, PolicyError, parse_policy, writable_roots

PROG = "codex-linux-sandbox"
USAGE = f"usage: {PROG} --sandbox-policy-cwd DIR --sandbox-policy JSON -- COMMAND [ARGS...]"
HOW_TO_PROCEED = (
    "run with `--sandbox danger-full-access` (no sandbox), or use a Linux kernel with "
    "Landlock enabled (5.13+, `landlock` in the lsm= boot list)"
)


class UsageError(ValueError):
    """Bad helper command line."""


class SandboxSetupError(RuntimeError):
    """The sandbox could not be enforced; the command must not run."""


class HelperArgs:
    """Parsed helper command line."""

    __slots__ = ("policy", "policy_cwd", "command")

    def __init__(self, policy: HelperPolicy, policy_cwd: str, command: list[str]) -> None:
        """Hold the parsed values."""
        self.policy = policy
        self.policy_cwd = policy_cwd
        self.command = command


def parse_args(argv: list[str]) -> HelperArgs:
    """Parse `--sandbox-policy-cwd DIR --sandbox-policy JSON -- CMD...`.

    Raises:
        UsageError: a flag is missing or unknown, or the policy is invalid.
    """
    values: dict[str, str] = {}
    i = 0
    while i < len(argv) and argv[i] != "--":
        flag, eq, value = argv[i].partition("=")
        if flag not in ("--sandbox-policy-cwd", "--sandbox-policy"):
            raise UsageError(f"unknown argument {argv[i]!r}")
        if not eq:
            i += 1
            if i >= len(argv):
                raise UsageError(f"{flag} needs a value")
            value = argv[i]
        values[flag] = value
        i += 1
    command = argv[i + 1 :]
    if "--sandbox-policy" not in values or "--sandbox-policy-cwd" not in values:
        raise UsageError("--sandbox-policy and --sandbox-policy-cwd are required")
    if not command:
        raise UsageError("no command given after --")
    try:
        policy = parse_policy(values["--sandbox-policy"])
    except PolicyError as err:
        raise UsageError(str(err)) from None
    return HelperArgs(policy, os.path.abspath(values["--sandbox-policy-cwd"]), command)


def apply_sandbox(policy: HelperPolicy, policy_cwd: str, env: Mapping[str, str]) -> None:
    """Confine the current process (and everything it execs) according to `policy`.

    Raises:
        SandboxSetupError: Landlock or seccomp is unavailable or was not enforced.
    """
    if policy.has_full_disk_write and policy.has_network:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    abi = landlock.abi_version(libc)
    if abi < 1:
        raise SandboxSetupError(f"Landlock is not available on this kernel; {HOW_TO_PROCEED}")
    if not policy.has_network and not seccomp.filter_available(libc):
        raise SandboxSetupError(
            f"seccomp filters are not available on this kernel or architecture; {HOW_TO_PROCEED}"
        )
    roots = writable_roots(policy, policy_cwd, env)
    protected = {r.root: [p for p in r.read_only_subpaths if os.path.lexists(p)] for r in roots}
    bound = _bind_protected_read_only(libc, [p for paths in protected.values() for p in paths])
    try:
        seccomp.set_no_new_privs(libc)
        ruleset = landlock.Ruleset(abi, restrict_tcp=not policy.has_network, libc=libc)
        ruleset.allow("/", landlock.READ_ACCESS)
        ruleset.allow("/dev/null", landlock.FILE_ACCESS)
        everything = ruleset.handled
        for root in roots:
            fenced = [p for p in protected[root.root] if p not in bound]
            if not fenced:
                ruleset.allow(root.root, everything)
                continue
            for entry in _children(root.root):
                if entry not in fenced and not os.path.islink(entry):
                    ruleset.allow(entry, everything)
        ruleset.restrict_self()
        if not policy.has_network:
            seccomp.install_network_filter(libc)
    except OSError as err:
        raise SandboxSetupError(f"{err.strerror or err}; {HOW_TO_PROCEED}") from None


def _bind_protected_read_only(libc: ctypes.CDLL, paths: list[str]) -> set[str]:
    """Bind the protected paths read-only in a private namespace; returns those that worked."""
    if not paths:
        return set()
    try:
        mountns.enter_private_namespace(libc)
    except mountns.NamespaceUnavailable:
        return set()  # no user namespaces here: the children fallback protects them
    except OSError as err:
        raise SandboxSetupError(
            f"cannot set up the mount namespace: {err}; {HOW_TO_PROCEED}"
        ) from None
    bound: set[str] = set()
    for path in paths:
        try:
            mountns.bind_read_only(libc, path)
        except OSError:
            continue
        bound.add(path)
    return bound


def _children(root: str) -> list[str]:
    try:
        return [os.path.join(root, name) for name in os.listdir(root)]
    except OSError:
        return []


def exec_command(command: list[str]) -> int:
    """Replace this process with `command`; returns 127/126 only if exec fails."""
    try:
        os.execvp(command[0], command)
    except FileNotFoundError:
        sys.stderr.write(f"{PROG}: command not found: {command[0]}\n")
        return 127
    except OSError as err:
        sys.stderr.write(f"{PROG}: cannot run {command[0]}: {err.strerror or err}\n")
        return 126


def main(argv: list[str]) -> int:
    """Helper entry point (arg0 dispatch); returns an exit code only when exec did not happen."""
    try:
        args = parse_args(argv)
    except UsageError as err:
        sys.stderr.write(f"{PROG}: {err}\n{USAGE}\n")
        return 2
    try:
        apply_sandbox(args.policy, args.policy_cwd, os.environ)
    except SandboxSetupError as err:
        sys.stderr.write(f"{PROG}: refusing to run the command unsandboxed: {err}\n")
        return 1
    return exec_command(args.command)
