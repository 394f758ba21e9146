"""Pure approval decisions for commands and patches: run (sandboxed or not), ask, or reject.

Commands are decided in this order (the first that applies wins):

1. a `forbidden` rule matches → Reject;
2. the exact argv was approved for the session → AutoApprove(none);
3. a `prompt` rule matches → AskUser (Reject under `never`);
4. a known-safe read-only command → AutoApprove(platform) when the sandbox policy has a
   sandbox and one is available (defence in depth if the classifier is wrong), otherwise
   AutoApprove(none); with `with_escalated_permissions` → AutoApprove(none), since running a
   read-only command unsandboxed needs nobody's permission;
5. any other command, from this table (an `allow` rule turns `untrusted` into `on-request`
   for that command, and never lifts the sandbox):

   ====================  ======================  ==================  ===================
   approval \\ sandbox    read-only or            same, but no        danger-full-access
                         workspace-write         sandbox available
   ====================  ======================  ==================  ===================
   untrusted             AskUser                 AskUser             AskUser
   on-failure            AutoApprove(platform)   AskUser             AutoApprove(none)
   on-request            AutoApprove(platform)   AskUser             AutoApprove(none)
   never                 AutoApprove(platform)   Reject              AutoApprove(none)
   escalated, untrusted  AskUser                 AskUser             AskUser
   escalated, on-failure AskUser                 AskUser             AutoApprove(none)
   escalated, on-request AskUser                 AskUser             AutoApprove(none)
   escalated, never      Reject                  Reject              AutoApprove(none)
   ====================  ======================  ==================  ===================

   Under danger-full-access there is no sandbox to escape, so an escalation request runs
   like any other command instead of being rejected under `never`.

After a sandbox denial, `should_ask_after_denial` says whether to offer an unsandboxed re-run
(`untrusted` and `on-failure`); under `on-request` and `never` the failure goes to the model.

Patches are applied by the core itself after this path check, so they never depend on the
platform sandbox (`sandbox_available` is accepted for symmetry and does not change them):

   ====================  ==============  ===============  ===========  ==================
   approval \\ sandbox    workspace-write workspace-write  read-only    danger-full-access
                         inside roots    outside roots
   ====================  ==============  ===============  ===========  ==================
   untrusted             AskUser         AskUser          AskUser      AskUser
   on-failure            AutoApprove     AskUser          AskUser      AutoApprove
   on-request            AutoApprove     AskUser          AskUser      AutoApprove
   never                 AutoApprove     Reject           Reject       AutoApprove
   ====================  ==============  ===============  ===========  ==================

A patch whose every path the user approved for the session is auto-approved in every cell;
an empty patch is rejected. "Inside roots" means every path, after resolving symlinks, lies
under a writable root (cwd, configured roots, /tmp, $TMPDIR) and not under a `.git` or
`.codex` directory of one, which stay read-only like in the sandbox.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from codex_core.command_safety import is_known_safe_command
from codex_core.execpolicy import RuleDecision
from codex_core.protocol.common import AskForApproval, DangerFullAccessPolicy, SandboxPolicy
from sandbox_helper.policy import WritableRoot, policy_from_mapping
from sandbox_helper.policy import writable_roots as helper_writable_roots


@dataclass(frozen=True)
class AutoApprove:
    """Run without asking; `sandbox` says whether the platform sandbox wraps the command."""

    sandbox: Literal["none", "platform"]
    reason: str


@dataclass(frozen=True)
class AskUser:
    """Ask the user first; `reason` explains why."""

    reason: str


@dataclass(frozen=True)
class Reject:
    """Do not run; `reason` goes back to the model."""

    reason: str


SafetyCheck = AutoApprove | AskUser | Reject

_NEVER_ASK = "the approval policy is `never`, so nobody can approve it"


def assess_command_safety(
    command: list[str],
    approval_policy: AskForApproval,
    sandbox_policy: SandboxPolicy,
    approved_for_session: Set[tuple[str, ...]],
    *,
    with_escalated_permissions: bool = False,
    sandbox_available: bool = True,
    rule_decision: RuleDecision | None = None,
) -> SafetyCheck:
    """Decide whether a command runs, in which sandbox, or needs the user (see module table).

    Args:
        command: The argv the model asked to run.
        approval_policy: When the user wants to be asked.
        sandbox_policy: What commands may touch.
        approved_for_session: Argvs the user approved for the rest of the session.
        with_escalated_permissions: The model asked to run outside the sandbox.
        sandbox_available: Whether the platform sandbox can be used here.
        rule_decision: The decision of the strictest matching `.rules` rule, if any.
    """
    if rule_decision == "forbidden":
        return Reject("a rule in your rules files forbids this command")
    if tuple(command) in approved_for_session:
        return AutoApprove("none", "you approved this exact command for the session")
    if rule_decision == "prompt":
        if approval_policy == "never":
            return Reject(f"a rule asks for approval of this command, but {_NEVER_ASK}")
        return AskUser("a rule in your rules files asks to confirm this command")
    sandboxed = not isinstance(sandbox_policy, DangerFullAccessPolicy)
    if is_known_safe_command(command):
        if sandboxed and sandbox_available and not with_escalated_permissions:
            return AutoApprove("platform", "known-safe read-only command")
        return AutoApprove("none", "known-safe read-only command")
    if approval_policy == "untrusted" and rule_decision != "allow":
        return AskUser("the command is not on the known-safe list")
    if not sandboxed:
        return AutoApprove("none", "the sandbox policy is danger-full-access")
    if with_escalated_permissions:
        if approval_policy == "never":
            return Reject(f"running outside the sandbox needs approval, but {_NEVER_ASK}")
        return AskUser("the command asks to run outside the sandbox")
    if not sandbox_available:
        if approval_policy == "never":
            return Reject(f"no sandbox is available on this platform and {_NEVER_ASK}")
        return AskUser("no sandbox is available on this platform to contain the command")
    reason = "allowed by a rule" if rule_decision == "allow" else "runs inside the sandbox"
    return AutoApprove("platform", reason)


def should_ask_after_denial(approval_policy: AskForApproval) -> bool:
    """Whether to offer an unsandboxed re-run after the sandbox denied a command."""
    return approval_policy in ("untrusted", "on-failure")


def writable_roots(
    sandbox_policy: SandboxPolicy, cwd: Path, env: Mapping[str, str] | None = None
) -> list[WritableRoot]:
    """The directories commands may write under (with their read-only subdirectories).

    Args:
        sandbox_policy: The session's sandbox policy.
        cwd: The turn's working directory.
        env: Environment for `$TMPDIR`; the process environment when omitted.
    """
    helper_policy = policy_from_mapping(sandbox_policy.model_dump())
    return helper_writable_roots(helper_policy, str(cwd), os.environ if env is None else env)


def assess_patch_safety(
    paths: Iterable[Path],
    approval_policy: AskForApproval,
    sandbox_policy: SandboxPolicy,
    cwd: Path,
    approved_for_session_paths: Set[Path] = frozenset(),
    sandbox_available: bool = True,
    *,
    env: Mapping[str, str] | None = None,
) -> SafetyCheck:
    """Decide whether a patch touching `paths` is applied, asked about or rejected.

    Args:
        paths: Every file the patch adds, deletes, updates or moves to (relative to `cwd`).
        approval_policy: When the user wants to be asked.
        sandbox_policy: What the agent may write.
        cwd: The turn's working directory.
        approved_for_session_paths: Resolved files the user approved for the session.
        sandbox_available: Accepted for symmetry; patches do not need the platform sandbox.
        env: Environment for `$TMPDIR`; the process environment when omitted.
    """
    del sandbox_available  # the core applies patches itself, after the path check below
    resolved = [Path(os.path.realpath(cwd / path)) for path in paths]
    if not resolved:
        return Reject("the patch does not touch any file")
    if all(path in approved_for_session_paths for path in resolved):
        return AutoApprove("none", "you approved these files for the session")
    if approval_policy == "untrusted":
        return AskUser("every patch needs approval under the `untrusted` policy")
    if isinstance(sandbox_policy, DangerFullAccessPolicy):
        return AutoApprove("none", "the sandbox policy is danger-full-access")
    roots = writable_roots(sandbox_policy, cwd, env)
    outside = [path for path in resolved if not _is_writable(path, roots)]
    if not outside:
        return AutoApprove("none", "every file is inside the writable roots")
    if sandbox_policy.mode == "read-only":
        why = "the sandbox policy is read-only"
    else:
        why = f"{outside[0]} is outside the writable roots"
    if approval_policy == "never":
        return Reject(f"{why}, and {_NEVER_ASK}")
    return AskUser(f"{why}; allow this edit?")


def _is_writable(path: Path, roots: list[WritableRoot]) -> bool:
    protected = [Path(os.path.realpath(p)) for root in roots for p in root.read_only_subpaths]
    if any(path.is_relative_to(p) for p in protected):
        return False
    return any(path.is_relative_to(os.path.realpath(root.root)) for root in roots)
