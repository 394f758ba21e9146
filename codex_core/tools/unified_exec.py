"""`exec_command` and `write_stdin`: commands that keep running between tool calls."""

from __future__ import annotations

import os
import pwd
import time
from dataclasses import dataclass
from typing import Any

from codex_core.exec import ExecParams, SandboxType, is_likely_sandbox_denied
from codex_core.exec.pty_process import spawn_live
from codex_core.frontend.commands import display_command
from codex_core.kernel import ToolCall
from codex_core.protocol import ExecCommandBeginEvent, TerminalInteractionEvent
from codex_core.safety import AutoApprove, Reject
from codex_core.stdin_approval import StartedRights, assess_stdin_write
from codex_core.tools.args import integer, parse_object, string
from codex_core.tools.context import ToolContext
from codex_core.tools.errors import RespondToModel, TurnAbortRequested
from codex_core.tools.shell import Rejected, approve_retry_unsandboxed, decide_sandbox
from codex_core.unified_exec.manager import UnifiedExecProcess, collect
from codex_core.unified_exec.output import DEFAULT_MAX_OUTPUT_TOKENS, format_response

DEFAULT_EXEC_YIELD_MS = 10_000
DEFAULT_WRITE_YIELD_MS = 250
MIN_YIELD_MS, MAX_YIELD_MS = 250, 30_000
MIN_POLL_YIELD_MS, MAX_POLL_YIELD_MS = 5_000, 300_000
# What the Codex CLI sets for these commands: no colours or pagers waiting for a human.
UNIFIED_EXEC_ENV = {
    "NO_COLOR": "1",
    "TERM": "dumb",
    "LANG": "C.UTF-8",
    "LC_CTYPE": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "COLORTERM": "",
    "PAGER": "cat",
    "GIT_PAGER": "cat",
    "GH_PAGER": "cat",
    "CODEX_CI": "1",
}


@dataclass(frozen=True)
class ExecCommandArgs:
    """Arguments of an `exec_command` call."""

    cmd: str
    workdir: str | None = None
    shell: str | None = None
    login: bool = True
    tty: bool = False
    yield_time_ms: int | None = None
    max_output_tokens: int | None = None
    escalated: bool = False
    justification: str | None = None
    prefix_rule: list[str] | None = None


@dataclass(frozen=True)
class WriteStdinArgs:
    """Arguments of a `write_stdin` call."""

    session_id: int
    chars: str = ""
    yield_time_ms: int | None = None
    max_output_tokens: int | None = None


def parse_exec_command_args(arguments: str) -> ExecCommandArgs:
    """Validate the JSON arguments of an `exec_command` call."""
    data = parse_object(arguments)
    cmd = string(data, "cmd")
    if not cmd:
        raise RespondToModel("failed to parse function arguments: missing field `cmd`")
    prefix = data.get("prefix_rule")
    permissions = data.get("sandbox_permissions")
    return ExecCommandArgs(
        cmd=cmd,
        workdir=string(data, "workdir"),
        shell=string(data, "shell"),
        login=data.get("login") is not False,
        tty=data.get("tty") is True,
        yield_time_ms=integer(data, "yield_time_ms"),
        max_output_tokens=integer(data, "max_output_tokens"),
        escalated=permissions in ("require_escalated", "bypass_sandbox"),
        justification=string(data, "justification"),
        prefix_rule=prefix
        if isinstance(prefix, list) and prefix and all(isinstance(p, str) for p in prefix)
        else None,
    )


def parse_write_stdin_args(arguments: str) -> WriteStdinArgs:
    """Validate the JSON arguments of a `write_stdin` call."""
    data = parse_object(arguments)
    session_id = integer(data, "session_id")
    if session_id is None:
        raise RespondToModel("failed to parse function arguments: missing field `session_id`")
    return WriteStdinArgs(
        session_id=session_id,
        chars=string(data, "chars") or "",
        yield_time_ms=integer(data, "yield_time_ms"),
        max_output_tokens=integer(data, "max_output_tokens"),
    )


def default_shell() -> str:
    """The user's login shell, else bash."""
    try:
        shell = pwd.getpwuid(os.getuid()).pw_shell
    except KeyError:
        shell = ""
    return shell if shell and os.path.isabs(shell) else "/bin/bash"


def command_argv(args: ExecCommandArgs) -> list[str]:
    """The argv that runs `cmd`: the shell with `-lc` (login) or `-c`."""
    return [args.shell or default_shell(), "-lc" if args.login else "-c", args.cmd]


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


async def handle_exec_command(ctx: ToolContext, call: ToolCall) -> str:
    """Start a command; return what it printed within the yield time, or its session id."""
    args = parse_exec_command_args(call.payload)
    if "\0" in args.cmd or "\0" in (args.workdir or ""):
        raise RespondToModel("`cmd` and `workdir` must not contain NUL bytes")
    manager = ctx.processes
    if manager is None:
        raise RespondToModel("unsupported call: exec_command")
    argv = command_argv(args)
    cwd = ctx.resolve(args.workdir)
    placement = await decide_sandbox(
        ctx,
        call.call_id,
        argv,
        cwd,
        escalated=args.escalated,
        justification=args.justification,
        prefix=args.prefix_rule,
    )
    if isinstance(placement, Rejected):
        return placement.message
    sandbox = placement.sandbox
    yield_ms = _clamp(args.yield_time_ms or DEFAULT_EXEC_YIELD_MS, MIN_YIELD_MS, MAX_YIELD_MS)
    max_tokens = args.max_output_tokens or DEFAULT_MAX_OUTPUT_TOKENS
    started = time.monotonic()
    entry, note = await _start(ctx, call.call_id, argv, cwd, args.tty, sandbox)
    output = await collect(entry, started + yield_ms / 1000)
    if (
        entry.exit_code not in (None, 0)
        and is_likely_sandbox_denied(sandbox, entry.exit_code or 0, None, output, "")
        and await approve_retry_unsandboxed(ctx, call.call_id, argv, cwd, placement)
    ):
        manager.forget(entry.session_id)
        started = time.monotonic()
        entry, note = await _start(ctx, call.call_id, argv, cwd, args.tty, "none")
        output = await collect(entry, started + yield_ms / 1000)
    return _respond(ctx, entry, output, started, max_tokens, note)


async def _start(
    ctx: ToolContext,
    call_id: str,
    argv: list[str],
    cwd: Any,
    tty: bool,
    sandbox: SandboxType,
) -> tuple[UnifiedExecProcess, str | None]:
    manager = ctx.processes
    assert manager is not None
    command, env = ctx.spawn_args(argv, {**ctx.env, **UNIFIED_EXEC_ENV})
    params = ExecParams(command=command, cwd=cwd, timeout_ms=None, env=env)
    ctx.emit(ExecCommandBeginEvent(call_id=call_id, command=argv, cwd=str(cwd)))
    holder: list[UnifiedExecProcess] = []
    early: list[bytes] = []

    def on_output(data: bytes) -> None:
        if holder:
            holder[0].feed(data)
        else:
            early.append(data)

    try:
        process = await spawn_live(
            params, sandbox, ctx.turn.sandbox_policy, ctx.turn.cwd, tty=tty, on_output=on_output
        )
    except OSError as err:
        raise RespondToModel(f"exec_command failed: could not start {argv[0]}: {err}") from None
    entry = UnifiedExecProcess(
        session_id=manager.reserve_id(),
        process=process,
        call_id=call_id,
        command=argv,
        emit=ctx.emit,
        rights=StartedRights(
            unsandboxed=sandbox == "none", policy=ctx.turn.sandbox_policy, cwd=ctx.turn.cwd
        ),
    )
    holder.append(entry)
    for data in early:
        entry.feed(data)
    return entry, manager.add(entry)


def _respond(
    ctx: ToolContext,
    entry: UnifiedExecProcess,
    output: str,
    started: float,
    max_tokens: int,
    note: str | None,
) -> str:
    assert ctx.processes is not None
    if entry.exit_code is not None:
        ctx.processes.forget(entry.session_id)
    text = format_response(
        output,
        time.monotonic() - started,
        exit_code=entry.exit_code,
        session_id=entry.session_id,
        max_tokens=max_tokens,
    )
    return f"{note}\n{text}" if note else text


async def handle_write_stdin(ctx: ToolContext, call: ToolCall) -> str:
    """Type into a running session (or just poll it) and return its new output."""
    args = parse_write_stdin_args(call.payload)
    manager = ctx.processes
    entry = manager.get(args.session_id) if manager is not None else None
    if entry is None:
        raise RespondToModel(f"write_stdin failed: Unknown process id {args.session_id}")
    started = time.monotonic()
    if args.chars:
        yield_ms = _clamp(args.yield_time_ms or DEFAULT_WRITE_YIELD_MS, MIN_YIELD_MS, MAX_YIELD_MS)
    else:
        yield_ms = _clamp(args.yield_time_ms or 0, MIN_POLL_YIELD_MS, MAX_POLL_YIELD_MS)
    if args.chars and entry.exit_code is None:
        await _approve_stdin(ctx, call.call_id, entry, args.chars)
    ctx.emit(
        TerminalInteractionEvent(
            call_id=call.call_id,
            process_id=str(args.session_id),
            stdin=args.chars,
            command_call_id=entry.call_id,
        )
    )
    if args.chars and entry.exit_code is None and not entry.process.write(args.chars.encode()):
        raise RespondToModel(
            "write_stdin failed: stdin is closed for this session; "
            "rerun exec_command with tty=true to keep stdin open"
        )
    output = await collect(entry, started + yield_ms / 1000)
    max_tokens = args.max_output_tokens or DEFAULT_MAX_OUTPUT_TOKENS
    return _respond(ctx, entry, output, started, max_tokens, None)


async def _approve_stdin(
    ctx: ToolContext, call_id: str, entry: UnifiedExecProcess, chars: str
) -> None:
    """Ask (or refuse) before typing into a session with more rights than this turn's.

    Raises:
        RespondToModel: the write is refused (by policy or by the user).
        TurnAbortRequested: the user chose to abort the turn.
    """
    if entry.stdin_approved:
        return
    turn = ctx.turn
    check = assess_stdin_write(
        turn.approval_policy, turn.sandbox_policy, turn.cwd, entry.rights, granular=turn.granular
    )
    if isinstance(check, AutoApprove):
        return
    if isinstance(check, Reject):
        raise RespondToModel(f"write_stdin rejected: {check.reason}")
    # What the user approves is this text typed into this session, shown as a command
    # (`write_stdin --session-id N 'text'`, as the Codex CLI shows it); the reason names
    # what runs there and with which rights, the cwd is the one it was started for.
    shown = display_command(entry.command)
    reason = f"Send input to terminal {entry.session_id} ({shown}): {check.reason}."
    typed = ["write_stdin", "--session-id", str(entry.session_id), chars]
    decision = await ctx.request_exec_approval(call_id, typed, entry.rights.cwd, reason, None)
    if decision == "abort":
        raise TurnAbortRequested()
    if decision == "denied":
        raise RespondToModel("write_stdin rejected by user")
    if decision == "approved_for_session":
        entry.stdin_approved = True
