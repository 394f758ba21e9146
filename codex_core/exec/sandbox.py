"""Choosing the platform sandbox and wrapping a command and its environment for it."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Literal

from codex_core.protocol.common import SandboxPolicy
from sandbox_helper.launch import LaunchPlan, find_bwrap, plan_launch, userns_available
from sandbox_helper.policy import HelperPolicy, policy_from_mapping
from sandbox_helper.seatbelt import SANDBOX_EXEC, seatbelt_argv

SandboxType = Literal["none", "linux", "macos"]

NETWORK_DISABLED_ENV = "CODEX_SANDBOX_NETWORK_DISABLED"
SANDBOX_ENV = "CODEX_SANDBOX"
HOW_TO_PROCEED = "run with `--sandbox danger-full-access` to run commands without a sandbox"

# Phrases tools print when the sandbox (not the command's own logic) refused an action.
DENIAL_MARKERS = (
    "permission denied",
    "operation not permitted",
    "read-only file system",
)
NOT_FOUND_EXIT = 127


class SandboxUnavailable(Exception):
    """The platform cannot sandbox commands; the message is one line with the fix."""


def helper_policy(policy: SandboxPolicy) -> HelperPolicy:
    """The stdlib-only view of a protocol `SandboxPolicy` that the helper understands."""
    return policy_from_mapping(policy.model_dump(mode="json"))


def linux_sandbox_problem(needs_seccomp: bool = True) -> str | None:
    """Why the Linux sandbox cannot run here, or None when it can.

    It needs seccomp filters and at least one file-system layer: bubblewrap with user
    namespaces, or Landlock.
    """
    from sandbox_helper import landlock, seccomp

    if needs_seccomp and not seccomp.filter_available():
        return f"seccomp filters are not available on this kernel or CPU; {HOW_TO_PROCEED}"
    if userns_available() and find_bwrap() is not None:
        return None
    if landlock.abi_version() < 1:
        return (
            "neither user namespaces (for bubblewrap) nor Landlock are available on this "
            f"kernel; {HOW_TO_PROCEED}"
        )
    return None


def select_sandbox(policy: SandboxPolicy) -> SandboxType:
    """The sandbox to use for `policy` on this platform.

    Raises:
        SandboxUnavailable: the policy needs a sandbox this platform cannot provide.
    """
    if policy.mode == "danger-full-access":
        return "none"
    if sys.platform.startswith("linux"):
        problem = linux_sandbox_problem()
        if problem:
            raise SandboxUnavailable(problem)
        return "linux"
    if sys.platform == "darwin":
        if os.path.exists(SANDBOX_EXEC):
            return "macos"
        raise SandboxUnavailable(f"{SANDBOX_EXEC} was not found; {HOW_TO_PROCEED}")
    raise SandboxUnavailable(f"commands cannot be sandboxed on {sys.platform}; {HOW_TO_PROCEED}")


def linux_launch_plan(
    command: list[str],
    policy: HelperPolicy,
    sandbox_cwd: Path,
    env: dict[str, str],
    env_fd: int | None,
    *,
    controlling_tty: bool = False,
    writable_files: tuple[tuple[int, str], ...] = (),
) -> LaunchPlan:
    """The bubblewrap (or, without user namespaces, Landlock-only) launch of `command`.

    Start `plan.argv` with an empty environment and `env_fd` (and the descriptors of
    `writable_files`) inherited; `env_fd` carries the command's environment
    (`sandbox_helper.launch.env_memfd`).
    """
    return plan_launch(
        command,
        policy,
        str(sandbox_cwd),
        env,
        env_fd=env_fd,
        controlling_tty=controlling_tty,
        writable_files=writable_files,
    )


def sandbox_argv(
    command: list[str],
    sandbox: SandboxType,
    policy: HelperPolicy,
    sandbox_cwd: Path,
    env: dict[str, str],
    codex_home: Path | None = None,
    *,
    env_fd: int | None = None,
    writable_files: tuple[tuple[int, str], ...] = (),
) -> list[str]:
    """The argv that runs `command` inside `sandbox`.

    On Linux the argv must be started with an empty environment; the command's own
    environment travels on `env_fd` (without one the command gets an empty environment).
    `codex_home` is accepted for compatibility and unused: nothing is installed there.
    `writable_files` (descriptor, path) are single files writable on top of the policy;
    Seatbelt takes their paths (canonical, opened without following links by the caller).
    """
    del codex_home
    if sandbox == "linux":
        # Only the argv leaves here, so nobody could give the placeholders back: keep them.
        plan = plan_launch(
            command,
            policy,
            str(sandbox_cwd),
            env,
            env_fd=env_fd,
            share_placeholders=False,
            writable_files=writable_files,
        )
        return plan.argv
    if sandbox == "macos":
        files = [path for _, path in writable_files]
        return seatbelt_argv(command, policy, str(sandbox_cwd), env, files)
    return list(command)


def sandbox_env(env: dict[str, str], sandbox: SandboxType, policy: HelperPolicy) -> dict[str, str]:
    """The child environment: `env` plus the markers sandboxed tools look for."""
    child = dict(env)
    if not policy.has_network:
        child[NETWORK_DISABLED_ENV] = "1"
    if sandbox == "macos":
        child[SANDBOX_ENV] = "seatbelt"
    return child


def is_likely_sandbox_denied(
    sandbox: SandboxType, exit_code: int, raw_signal: int | None, stderr: str, stdout: str
) -> bool:
    """Whether a failure looks like the sandbox refusing an action.

    Needs a sandbox and a failure; "command not found" (127) never counts. A SIGSYS death
    (a seccomp kill) always counts; otherwise a known refusal phrase must appear.
    """
    if sandbox == "none" or exit_code == 0 or exit_code == NOT_FOUND_EXIT:
        return False
    if raw_signal == signal.SIGSYS:
        return True
    text = f"{stderr}\n{stdout}".lower()
    return any(marker in text for marker in DENIAL_MARKERS)
