"""Pure approval decisions for commands and patches: run (sandboxed or not), ask, or reject.

Known-safe never means unsandboxed: the known-safe classification only decides whether to
*ask*; leaving the sandbox always goes through the approval policy, and without a platform
sandbox nothing runs or is written silently (fail closed).

Commands are decided in this order (the first that applies wins):

1. a `forbidden` rule matches → Reject;
2. the exact argv was approved for the session in this cwd (the caller passes the argvs
   approved for the command's cwd) → AutoApprove(none) if it was approved to run outside
   the sandbox, else AutoApprove(platform) (an escalation request of an argv approved only
   inside the sandbox goes on to 4);
3. a `prompt` rule matches → AskUser (Reject under `never`);
4. an escalation request (`with_escalated_permissions`, `sandbox_permissions:
   "require_escalated"`) under a sandboxed policy → AskUser (Reject under `never`), whether
   or not the command is known-safe;
5. a known-safe read-only command → AutoApprove(platform) when the policy has a sandbox
   and one is available, AutoApprove(none) under danger-full-access; with no sandbox
   available it is treated like any other command (next table, middle column);
6. any other command, from this table (an `allow` rule turns `untrusted` into `on-request`
   for that command, and never lifts the sandbox):

   ====================  ======================  ==================  ===================
   approval \\ sandbox    read-only or            same, but no        danger-full-access
                         workspace-write         sandbox available
   ====================  ======================  ==================  ===================
   untrusted             AskUser                 AskUser             AskUser
   on-failure            AutoApprove(platform)   AskUser             AutoApprove(none)
   on-request            AutoApprove(platform)   AskUser             AutoApprove(none)
   never                 AutoApprove(platform)   Reject              AutoApprove(none)
   known-safe, any       AutoApprove(platform)   AskUser†            AutoApprove(none)
   escalated, untrusted  AskUser                 AskUser             AskUser
   escalated, on-failure AskUser                 AskUser             AutoApprove(none)
   escalated, on-request AskUser                 AskUser             AutoApprove(none)
   escalated, never      Reject                  Reject              AutoApprove(none)
   ====================  ======================  ==================  ===================

   † Reject under `never`. The escalated rows hold for known-safe commands too (in the
   sandboxed columns). Under danger-full-access there is no sandbox to escape, so an
   escalation request runs like any other command instead of being rejected under `never`.

An approval skips the prompt, not the sandbox: after AskUser is approved, the command runs
in the platform sandbox unless it asked for escalation (or no sandbox is available), as in
the Codex CLI; that approval then also covers a re-run outside the sandbox after a denial
(of that run, or, approved for the session, of the same argv in the same cwd).

After a sandbox denial, `should_ask_after_denial` says whether to offer an unsandboxed re-run
(`untrusted` and `on-failure`); under `on-request` and `never` the failure goes to the model.

Patches are written by the apply_patch console script run through the same platform
sandbox as commands, so the kernel, not the path check below, decides where a write lands
(the check only decides whether to ask):

   ====================  ==============  ===============  ===========  ==================
   approval \\ sandbox    workspace-write workspace-write  read-only    danger-full-access
                         inside roots    outside roots
   ====================  ==============  ===============  ===========  ==================
   untrusted             AskUser         AskUser          AskUser      AskUser
   on-failure            Auto(platform)  AskUser          AskUser      AutoApprove(none)
   on-request            Auto(platform)  AskUser          AskUser      AutoApprove(none)
   never                 Auto(platform)  Reject           Reject       AutoApprove(none)
   ====================  ==============  ===============  ===========  ==================

Without a platform sandbox, "inside roots" patches ask (Reject under `never`) like commands.
A patch whose every path the user approved for the session is auto-approved in every cell;
an empty patch is rejected. "Inside roots" means every path, after resolving symlinks, lies
under a writable root (cwd, configured roots, /tmp, $TMPDIR) and not under a `.git` or
`.codex` directory of one, which stay read-only like in the sandbox. An approved patch is
written in the platform sandbox whenever one exists: the files the user approved outside
the roots are added to that one launch, nothing else; unsandboxed only under
danger-full-access or without a sandbox.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from codex_core.command_safety import is_known_safe_command
from codex_core.execpolicy import RuleDecision
from codex_core.policies import GranularApproval, granular_asks
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
_GRANULAR_OFF = "the approval policy is `granular` with `{kind} = false`, so nobody is asked"
"""Under `never` leaving the sandbox, a `.rules` prompt or an edit outside the writable roots is
rejected instead of asked about; under `granular` so is each kind its settings turn off
(`sandbox_approval` for the sandbox and the roots, `rules` for `.rules` prompts)."""


def _nobody(approval_policy: AskForApproval, kind: str = "sandbox_approval") -> str:
    """Why nobody is asked, naming the policy (and for `granular` the setting)."""
    if approval_policy == "granular":
        return _GRANULAR_OFF.format(kind=kind)
    return _NEVER_ASK.replace("`never`", f"`{approval_policy}`")


def assess_command_safety(
    command: list[str],
    approval_policy: AskForApproval,
    sandbox_policy: SandboxPolicy,
    approved_for_session: Set[tuple[str, ...]],
    *,
    approved_unsandboxed: Set[tuple[str, ...]] = frozenset(),
    with_escalated_permissions: bool = False,
    sandbox_available: bool = True,
    rule_decision: RuleDecision | None = None,
    granular: GranularApproval | None = None,
) -> SafetyCheck:
    """Decide whether a command runs, in which sandbox, or needs the user (see module table).

    Args:
        command: The argv the model asked to run.
        approval_policy: When the user wants to be asked.
        sandbox_policy: What commands may touch.
        approved_for_session: Argvs the user approved for the rest of the session; they
            run without asking, inside the sandbox when there is one.
        approved_unsandboxed: Argvs the user approved to run outside the sandbox for the
            rest of the session.
        with_escalated_permissions: The model asked to run outside the sandbox.
        sandbox_available: Whether the platform sandbox can be used here.
        rule_decision: The decision of the strictest matching `.rules` rule, if any.
        granular: `granular`'s settings (DEFAULT_GRANULAR when None).
    """
    if rule_decision == "forbidden":
        return Reject("a rule in your rules files forbids this command")
    sandboxed = not isinstance(sandbox_policy, DangerFullAccessPolicy)
    if tuple(command) in approved_unsandboxed:
        return AutoApprove("none", "you approved running this exact command outside the sandbox")
    if tuple(command) in approved_for_session and not (sandboxed and with_escalated_permissions):
        reason = "you approved this exact command for the session"
        if sandboxed and sandbox_available:
            return AutoApprove("platform", reason)
        return AutoApprove("none", reason)
    if rule_decision == "prompt":
        if not granular_asks(approval_policy, granular, "rules"):
            return Reject(
                f"a rule asks for approval of this command, but {_nobody(approval_policy, 'rules')}"
            )
        return AskUser("a rule in your rules files asks to confirm this command")
    if sandboxed and with_escalated_permissions:
        # Known-safe or not: leaving the sandbox is the user's call, never the classifier's.
        if not granular_asks(approval_policy, granular):
            return Reject(
                f"running outside the sandbox needs approval, but {_nobody(approval_policy)}"
            )
        return AskUser("the command asks to run outside the sandbox")
    if is_known_safe_command(command):
        if not sandboxed:
            return AutoApprove("none", "known-safe read-only command")
        if sandbox_available:
            return AutoApprove("platform", "known-safe read-only command")
        return _no_sandbox(approval_policy, "command", granular)
    if approval_policy == "untrusted" and rule_decision != "allow":
        return AskUser("the command is not on the known-safe list")
    if not sandboxed:
        return AutoApprove("none", "the sandbox policy is danger-full-access")
    if not sandbox_available:
        return _no_sandbox(approval_policy, "command", granular)
    reason = "allowed by a rule" if rule_decision == "allow" else "runs inside the sandbox"
    return AutoApprove("platform", reason)


def _no_sandbox(
    approval_policy: AskForApproval, what: str, granular: GranularApproval | None = None
) -> AskUser | Reject:
    """Fail closed: without a platform sandbox nothing runs or is written without a yes."""
    if not granular_asks(approval_policy, granular):
        return Reject(f"no sandbox is available on this platform and {_nobody(approval_policy)}")
    return AskUser(f"no sandbox is available on this platform to contain the {what}")


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
    granular: GranularApproval | None = None,
) -> SafetyCheck:
    """Decide whether a patch touching `paths` is applied, asked about or rejected.

    An AutoApprove says where the patch is written; after the user approves an AskUser,
    `patch_sandbox` says it.

    Args:
        paths: Every file the patch adds, deletes, updates or moves to (relative to `cwd`).
        approval_policy: When the user wants to be asked.
        sandbox_policy: What the agent may write.
        cwd: The turn's working directory.
        approved_for_session_paths: Resolved files the user approved for the session.
        sandbox_available: Whether the platform sandbox can be used here.
        env: Environment for `$TMPDIR`; the process environment when omitted.
        granular: `granular`'s settings (DEFAULT_GRANULAR when None); an edit outside the
            writable roots is a `sandbox_approval` request.
    """
    resolved = [Path(os.path.realpath(cwd / path)) for path in paths]
    if not resolved:
        return Reject("the patch does not touch any file")
    where = patch_sandbox(resolved, sandbox_policy, cwd, sandbox_available, env=env)
    if all(path in approved_for_session_paths for path in resolved):
        return AutoApprove(where, "you approved these files for the session")
    if approval_policy == "untrusted":
        return AskUser("every patch needs approval under the `untrusted` policy")
    if isinstance(sandbox_policy, DangerFullAccessPolicy):
        return AutoApprove("none", "the sandbox policy is danger-full-access")
    roots = writable_roots(sandbox_policy, cwd, env)
    outside = [path for path in resolved if not _is_writable(path, roots)]
    if not outside:
        if not sandbox_available:
            return _no_sandbox(approval_policy, "patch", granular)
        return AutoApprove("platform", "every file is inside the writable roots")
    if sandbox_policy.mode == "read-only":
        why = "the sandbox policy is read-only"
    else:
        why = f"{outside[0]} is outside the writable roots"
    if not granular_asks(approval_policy, granular):
        return Reject(f"{why}, and {_nobody(approval_policy)}")
    return AskUser(f"{why}; allow this edit?")


def patch_sandbox(
    paths: Iterable[Path],
    sandbox_policy: SandboxPolicy,
    cwd: Path,
    sandbox_available: bool = True,
    *,
    env: Mapping[str, str] | None = None,
) -> Literal["none", "platform"]:
    """Where a patch is written with the turn's own policy: "platform" when it can be.

    "none" means the turn's policy does not cover every path: under danger-full-access or
    with no sandbox the patch is written unsandboxed; otherwise (paths the user approved
    outside the writable roots) `codex_core.tools.patch` still runs it in the platform
    sandbox with exactly those files added (`patch_extra_writable`).

    Args:
        paths: Every file the patch writes (relative to `cwd`).
        sandbox_policy: What the agent may write.
        cwd: The turn's working directory.
        sandbox_available: Whether the platform sandbox can be used here.
        env: Environment for `$TMPDIR`; the process environment when omitted.
    """
    if isinstance(sandbox_policy, DangerFullAccessPolicy) or not sandbox_available:
        return "none"
    roots = writable_roots(sandbox_policy, cwd, env)
    resolved = [Path(os.path.realpath(cwd / path)) for path in paths]
    return "platform" if all(_is_writable(p, roots) for p in resolved) else "none"


def patch_extra_writable(
    paths: Iterable[Path],
    sandbox_policy: SandboxPolicy,
    cwd: Path,
    *,
    env: Mapping[str, str] | None = None,
) -> list[Path]:
    """The real `paths` an approved patch writes outside the writable roots.

    These, and nothing else, are added to the sandbox of the launch that applies the
    patch. `paths` are absolute and already resolved (real paths at approval time).
    """
    roots = writable_roots(sandbox_policy, cwd, env)
    outside = [path for path in paths if not _is_writable(path, roots)]
    return list(dict.fromkeys(outside))


def _is_writable(path: Path, roots: list[WritableRoot]) -> bool:
    protected = [Path(os.path.realpath(p)) for root in roots for p in root.read_only_subpaths]
    if any(path.is_relative_to(p) for p in protected):
        return False
    return any(path.is_relative_to(os.path.realpath(root.root)) for root in roots)
