"""The shell tool: safety check, approval, sandboxed run, streamed output, denial retry."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codex_core.exec import (
    ExecParams,
    ExecResult,
    SandboxType,
    SandboxUnavailable,
    format_output_for_model,
    run_exec,
    select_sandbox,
)
from codex_core.execpolicy import suggest_prefix
from codex_core.protocol import (
    ABORTED_BY_USER,
    INTERRUPTED_EXIT_CODE,
    ExecCommandBeginEvent,
    ExecCommandEndEvent,
    ExecCommandOutputDeltaEvent,
)
from codex_core.safety import (
    AskUser,
    AutoApprove,
    Reject,
    assess_command_safety,
    should_ask_after_denial,
)
from codex_core.tools.args import ToolArgumentError, integer, parse_object
from codex_core.tools.context import CommandApproval, ToolContext
from codex_core.tools.errors import TurnAbortRequested

log = logging.getLogger(__name__)

PARTIAL_OUTPUT_CHARS = 64 * 1024
"""Output kept for the end event of an interrupted command (the live deltas carry it all)."""
DENIAL_QUESTION = "command failed in the sandbox; run it without the sandbox?"


@dataclass(frozen=True)
class Rejected:
    """A command that may not run; `message` is the tool output the model receives."""

    message: str


@dataclass(frozen=True)
class ShellArgs:
    """Arguments of a `shell` call."""

    command: list[str]
    workdir: str | None = None
    timeout_ms: int | None = None
    with_escalated_permissions: bool = False
    justification: str | None = None


def parse_shell_args(arguments: str) -> ShellArgs:
    """Validate the JSON arguments of a `shell` call."""
    data = parse_object(arguments)
    command = data.get("command")
    if isinstance(command, str):
        command = ["bash", "-lc", command]
    if not isinstance(command, list) or not command or not all(isinstance(a, str) for a in command):
        raise ToolArgumentError("`command` must be a non-empty list of strings")
    timeout_key = "timeout_ms" if "timeout_ms" in data else "timeout"
    timeout = integer(data, timeout_key, minimum=1)
    workdir = data.get("workdir")
    return ShellArgs(
        command=command,
        workdir=workdir if isinstance(workdir, str) else None,
        timeout_ms=timeout,
        # Both shapes ask to leave the sandbox: the older boolean and 0.169's enum.
        with_escalated_permissions=bool(data.get("with_escalated_permissions", False))
        or data.get("sandbox_permissions") in ("require_escalated", "bypass_sandbox"),
        justification=data.get("justification")
        if isinstance(data.get("justification"), str)
        else None,
    )


def model_output(result: ExecResult) -> str:
    """The JSON text the model receives for a finished command."""
    return json.dumps(
        {
            "output": format_output_for_model(result),
            "metadata": {
                "exit_code": result.exit_code,
                "duration_seconds": round(result.duration_ms / 1000, 1),
            },
        }
    )


@dataclass(frozen=True)
class Placement:
    """Where one command runs, and whether the user approved this exact run.

    `approved` means the user said yes to this very run a moment ago (it lets the same argv
    in the same cwd be re-run outside the sandbox after a denial without asking twice, as
    the Codex CLI does); it belongs to this call alone and is never looked up later by the
    model-chosen call id.
    """

    sandbox: SandboxType
    approved: bool


async def decide_sandbox(
    ctx: ToolContext,
    call_id: str,
    command: list[str],
    cwd: Path,
    *,
    escalated: bool,
    justification: str | None,
    prefix: list[str] | None = None,
) -> Placement | Rejected:
    """Where `command` may run: safety check, rules, maybe the user's approval.

    Shared by `shell` and `exec_command`. Returns the placement, or `Rejected` with the
    text the model receives.

    Raises:
        TurnAbortRequested: the user chose to abort the turn.
    """
    turn = ctx.turn
    try:
        platform_sandbox: SandboxType = select_sandbox(turn.sandbox_policy)
        sandbox_available = True
    except SandboxUnavailable as err:
        log.info("no sandbox: %s", err)
        platform_sandbox, sandbox_available = "none", False
    match = ctx.rules.match(command) if ctx.rules is not None else None
    check = assess_command_safety(
        command,
        turn.approval_policy,
        turn.sandbox_policy,
        ctx.approvals.argvs(cwd, unsandboxed=False),
        approved_unsandboxed=ctx.approvals.argvs(cwd, unsandboxed=True),
        with_escalated_permissions=escalated,
        sandbox_available=sandbox_available,
        rule_decision=match.decision if match is not None else None,
        granular=turn.granular,
    )
    if isinstance(check, Reject):
        return Rejected(f"exec command rejected: {check.reason}")
    if isinstance(check, AskUser):
        reason = justification or check.reason
        decision = await ctx.request_exec_approval(
            call_id, command, cwd, reason, prefix or suggest_prefix(command)
        )
        if decision == "abort":
            raise TurnAbortRequested()
        if decision == "denied":
            return Rejected("exec command rejected by user")
        # Approval skips the prompt, not the sandbox: only an escalation request (or a
        # platform without a sandbox, which the question said) runs outside it at once.
        outside = escalated or not sandbox_available
        if decision == "approved_for_session":
            ctx.approvals.commands.add(CommandApproval.of(command, cwd, unsandboxed=outside))
        return Placement("none" if outside else platform_sandbox, approved=True)
    assert isinstance(check, AutoApprove)
    # A run approved for the session (this argv, this cwd) is approved like the first one
    # was, re-run after a denial included (as in the Codex CLI); anything else asks then.
    approved = tuple(command) in ctx.approvals.argvs(cwd, unsandboxed=False)
    return Placement(platform_sandbox if check.sandbox == "platform" else "none", approved)


async def approve_retry_unsandboxed(
    ctx: ToolContext, call_id: str, command: list[str], cwd: Path, placement: Placement
) -> bool:
    """After a sandbox denial: whether to run `command` again without the sandbox.

    Only under the policies that allow it (`untrusted`, `on-failure`); a run the user
    approved a moment ago (this argv, this cwd) is re-run without asking again, any other
    asks.

    Raises:
        TurnAbortRequested: the user chose to abort the turn.
    """
    if placement.sandbox == "none" or not should_ask_after_denial(ctx.turn.approval_policy):
        return False
    if placement.approved:
        return True
    decision = await ctx.request_exec_approval(call_id, command, cwd, DENIAL_QUESTION, None)
    if decision == "abort":
        raise TurnAbortRequested()
    if decision == "approved_for_session":
        ctx.approvals.commands.add(CommandApproval.of(command, cwd, unsandboxed=True))
    return decision in ("approved", "approved_for_session")


async def run_shell(ctx: ToolContext, call_id: str, args: ShellArgs) -> str:
    """Decide, maybe ask, run and report one command; returns the model's tool output."""
    cwd = ctx.resolve(args.workdir)
    placement = await decide_sandbox(
        ctx,
        call_id,
        args.command,
        cwd,
        escalated=args.with_escalated_permissions,
        justification=args.justification,
    )
    if isinstance(placement, Rejected):
        return placement.message
    result = await _run_with_events(ctx, call_id, args, cwd, placement.sandbox)
    if result.sandbox_denied and await approve_retry_unsandboxed(
        ctx, call_id, args.command, cwd, placement
    ):
        result = await _run_with_events(ctx, call_id, args, cwd, "none")
    return model_output(result)


async def _run_with_events(
    ctx: ToolContext, call_id: str, args: ShellArgs, cwd: Path, sandbox: SandboxType
) -> ExecResult:
    ctx.emit(ExecCommandBeginEvent(call_id=call_id, command=args.command, cwd=str(cwd)))
    seen: list[str] = []

    def on_output(stream: Any, chunk: str) -> None:
        if sum(map(len, seen)) < PARTIAL_OUTPUT_CHARS:
            seen.append(chunk)
        ctx.emit(ExecCommandOutputDeltaEvent(call_id=call_id, stream=stream, chunk=chunk))

    command, env = ctx.spawn_args(args.command, dict(ctx.env))
    params = ExecParams(
        command=command,
        cwd=cwd,
        timeout_ms=args.timeout_ms or ctx.turn.shell_timeout_ms,
        env=env,
    )
    started = time.monotonic()
    try:
        result = await run_exec(
            params,
            sandbox,
            ctx.turn.sandbox_policy,
            ctx.turn.cwd,
            on_output,
            codex_home=ctx.codex_home,
        )
    except OSError as err:
        result = ExecResult(
            exit_code=127,
            stdout="",
            stderr=str(err),
            aggregated_output=f"failed to start command: {err}",
            duration_ms=0,
            timed_out=False,
            sandbox_denied=False,
        )
    except asyncio.CancelledError:
        # run_exec killed the process group; the begin event still needs its end.
        partial = "".join(seen)
        sep = "" if not partial or partial.endswith("\n") else "\n"
        ctx.emit(
            ExecCommandEndEvent(
                call_id=call_id,
                stderr=ABORTED_BY_USER,
                aggregated_output=f"{partial}{sep}{ABORTED_BY_USER}\n",
                exit_code=INTERRUPTED_EXIT_CODE,
                duration_ms=int((time.monotonic() - started) * 1000),
                formatted_output=ABORTED_BY_USER,
                interrupted=True,
                command=args.command,
            )
        )
        raise
    ctx.emit(
        ExecCommandEndEvent(
            call_id=call_id,
            stdout=result.stdout,
            stderr=result.stderr,
            aggregated_output=result.aggregated_output,
            exit_code=result.exit_code,
            duration_ms=result.duration_ms,
            formatted_output=format_output_for_model(result),
            timed_out=result.timed_out,
            command=args.command,
        )
    )
    return result
