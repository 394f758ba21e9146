"""The apply_patch tool: parse, compute changes, decide safety, apply, report the turn diff.

The codex process never writes a patch itself: it runs the `apply_patch` command (an
isolated interpreter, patch on stdin) through the same platform sandbox as shell commands,
so the kernel decides where each write lands, whatever a link in the workspace points at
by then. A patch the user approved outside the writable roots runs there too, with
exactly the approved files added (`patch_grants`); only under danger-full-access, or
where no sandbox exists, is a patch written without one.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from codex_core.apply_patch import (
    ApplyPatchError,
    FileChangeInfo,
    HunkPins,
    compute_changes,
    encode_pins,
    parse_patch,
    pin_patch,
)
from codex_core.apply_patch.cli import PINNED_FLAG
from codex_core.exec import (
    ExecParams,
    ExecResult,
    SandboxType,
    SandboxUnavailable,
    run_exec,
    select_sandbox,
)
from codex_core.exec.arg0 import isolated_python_argv
from codex_core.protocol import (
    AddChange,
    DeleteChange,
    FileChange,
    PatchApplyBeginEvent,
    PatchApplyEndEvent,
    TurnDiffEvent,
    UpdateChange,
)
from codex_core.protocol.common import SandboxPolicy
from codex_core.safety import (
    AskUser,
    AutoApprove,
    Reject,
    assess_patch_safety,
    patch_extra_writable,
    patch_sandbox,
)
from codex_core.tools.args import ToolArgumentError, parse_object
from codex_core.tools.context import ToolContext
from codex_core.tools.errors import TurnAbortRequested
from codex_core.tools.patch_grants import GrantError, close_all, open_approved

log = logging.getLogger(__name__)

APPLY_PATCH_TARGET = "codex_core.apply_patch.cli:main"
# The command needs no environment of its own; PATH only for the sandbox wrapper.
APPLY_PATCH_ENV = {"PATH": "/usr/bin:/bin"}
ABORTED = "apply_patch was aborted: the turn was interrupted while the patch was being applied"
SANDBOX_REFUSED = (
    "the sandbox refused this write: patches may change only files inside the writable "
    "roots, and never their .git or .codex"
)


def patch_input_from_arguments(arguments: str) -> str:
    """The patch text of a function-style `apply_patch` call (`{"input": …}`)."""
    try:
        data = parse_object(arguments)
    except ToolArgumentError as err:
        raise ApplyPatchError(str(err)) from None
    if not isinstance(data.get("input"), str):
        raise ApplyPatchError("apply_patch needs an `input` string holding the patch")
    return str(data["input"])


def protocol_changes(changes: list[FileChangeInfo]) -> dict[str, FileChange]:
    """Per-file changes keyed by path, as carried by approval and patch events."""
    out: dict[str, FileChange] = {}
    for change in changes:
        key = str(change.path)
        if change.kind == "add":
            out[key] = AddChange(content=change.content or "")
        elif change.kind == "delete":
            out[key] = DeleteChange(content=change.content or "")
        else:
            move = str(change.move_path) if change.move_path is not None else None
            out[key] = UpdateChange(unified_diff=change.unified_diff or "", move_path=move)
    return out


def touched_paths(changes: list[FileChangeInfo]) -> list[Path]:
    """Every path a patch writes, including move destinations."""
    paths: list[Path] = []
    for change in changes:
        paths.append(change.path)
        if change.move_path is not None:
            paths.append(change.move_path)
    return paths


def pinned_touched_paths(changes: list[FileChangeInfo], pins: list[HunkPins]) -> list[Path]:
    """`touched_paths(changes)`, each as its hunk's pin: where it is written or removed."""
    paths: list[Path] = []
    for change, pin in zip(changes, pins, strict=True):
        if change.move_path is None:
            pinned = pin.write if change.kind != "delete" else pin.remove
            assert pinned is not None
            paths.append(Path(pinned))
            continue
        assert pin.write is not None
        paths += [Path(pin.remove or pin.write), Path(pin.write)]
    return paths


async def run_apply_patch(
    ctx: ToolContext, call_id: str, patch_text: str, workdir: str | None
) -> str:
    """Apply one patch with the approval flow; returns the model's tool output."""
    cwd = ctx.resolve(workdir)
    try:
        patch = parse_patch(patch_text)
        changes = compute_changes(patch, cwd)
        # Pinned before the question: each hunk writes where its path leads now, through
        # no link swapped in later (`codex_core.apply_patch.pins`); the command reads the
        # pins from the first line of its stdin.
        pins = pin_patch(patch, cwd)
        stdin = f"{encode_pins(pins)}\n{patch_text}".encode("utf-8", errors="surrogateescape")
    except ApplyPatchError as err:
        return f"apply_patch verification failed: {err}"
    except UnicodeEncodeError:
        return "apply_patch verification failed: the patch is not valid Unicode text"
    except OSError as err:  # e.g. a path too long for the file system, a loop of links
        where = f": {err.filename}" if err.filename else ""
        return f"apply_patch verification failed: {err.strerror or err}{where}"
    paths = touched_paths(changes)
    # What the user is asked about is where each path leads now (the pins); it is written
    # there or nowhere (`patch_grants` and the command refuse a link swapped in later).
    real = pinned_touched_paths(changes, pins)
    turn = ctx.turn
    platform = _platform_sandbox(ctx)
    check = assess_patch_safety(
        real,
        turn.approval_policy,
        turn.sandbox_policy,
        turn.cwd,
        ctx.approvals.patch_paths,
        platform is not None,
        granular=turn.granular,
    )
    file_changes = protocol_changes(changes)
    if isinstance(check, Reject):
        return f"patch rejected: {check.reason}"
    if isinstance(check, AskUser):
        decision = await ctx.request_patch_approval(call_id, file_changes, check.reason, None)
        if decision == "abort":
            raise TurnAbortRequested()
        if decision == "denied":
            return "patch rejected by user"
        if decision == "approved_for_session":
            ctx.approvals.patch_paths.update(p.resolve() for p in real)
        where = patch_sandbox(real, turn.sandbox_policy, turn.cwd, platform is not None)
    else:
        assert isinstance(check, AutoApprove)
        where = check.sandbox
    sandbox: SandboxType = platform if where == "platform" and platform is not None else "none"
    grants: list[tuple[int, str]] = []
    if where == "none" and platform in ("linux", "macos"):
        # Approved outside the writable roots: still sandboxed, with exactly those files
        # (bound by descriptor under bubblewrap, as literal paths in a Seatbelt profile).
        try:
            grants = _grant_outside(changes, real, turn.sandbox_policy, turn.cwd)
        except GrantError as err:
            return f"patch rejected: {err}"
        sandbox = platform
    try:
        return await _apply(ctx, call_id, check, file_changes, paths, stdin, cwd, sandbox, grants)
    finally:
        close_all(grants)


async def _apply(
    ctx: ToolContext,
    call_id: str,
    check: AutoApprove | AskUser,
    file_changes: dict[str, FileChange],
    paths: list[Path],
    stdin: bytes,
    cwd: Path,
    sandbox: SandboxType,
    grants: list[tuple[int, str]],
) -> str:
    ctx.diff_tracker.on_patch_begin(paths)
    ctx.emit(
        PatchApplyBeginEvent(
            call_id=call_id, auto_approved=not isinstance(check, AskUser), changes=file_changes
        )
    )
    try:
        result = await _apply_in_sandbox(ctx, stdin, cwd, sandbox, tuple(grants))
    except asyncio.CancelledError:
        ctx.emit(PatchApplyEndEvent(call_id=call_id, stderr=ABORTED, success=False))
        raise
    except OSError as err:
        ctx.emit(PatchApplyEndEvent(call_id=call_id, stderr=str(err), success=False))
        return f"apply_patch failed: {err}"
    if result.exit_code == 0 and not result.timed_out:
        ctx.emit(PatchApplyEndEvent(call_id=call_id, stdout=result.stdout, success=True))
        _emit_turn_diff(ctx)
        return result.stdout
    stderr = _failure_text(result, sandbox)
    ctx.emit(PatchApplyEndEvent(call_id=call_id, stderr=stderr, success=False))
    _emit_turn_diff(ctx)
    return f"apply_patch failed: {stderr}"


def _platform_sandbox(ctx: ToolContext) -> SandboxType | None:
    """The sandbox patches run in for this turn ("none" under full access), None if absent."""
    try:
        return select_sandbox(ctx.turn.sandbox_policy)
    except SandboxUnavailable as err:
        log.info("no sandbox for apply_patch: %s", err)
        return None


def _grant_outside(
    changes: list[FileChangeInfo], real: list[Path], policy: SandboxPolicy, cwd: Path
) -> list[tuple[int, str]]:
    """Descriptors of the approved files outside the writable roots (see `patch_grants`).

    Raises:
        GrantError: a path changed since it was approved, or the patch deletes or moves a
            file outside the roots (that needs its directory, more than the file).
    """
    real_of = dict(zip(touched_paths(changes), real, strict=True))
    outside = set(patch_extra_writable(real, policy, cwd))
    wanted: dict[Path, bool] = {}
    for change in changes:
        source = real_of[change.path]
        if source in outside and (change.kind == "delete" or change.move_path is not None):
            raise GrantError(
                f"{source} is outside the writable roots: a patch may add or update files "
                "there, not delete or move them"
            )
        if source in outside:
            wanted[source] = wanted.get(source, False) or change.kind == "add"
        if change.move_path is not None and real_of[change.move_path] in outside:
            wanted[real_of[change.move_path]] = True
    grants: list[tuple[int, str]] = []
    try:
        for path, create in wanted.items():
            grants.append((open_approved(path, create=create), str(path)))
    except GrantError:
        close_all(grants)
        raise
    return grants


async def _apply_in_sandbox(
    ctx: ToolContext,
    patch: bytes,
    cwd: Path,
    sandbox: SandboxType,
    grants: tuple[tuple[int, str], ...] = (),
) -> ExecResult:
    """Run the apply_patch command in `cwd` inside `sandbox`, the patch on its stdin."""
    if not cwd.is_dir():
        raise FileNotFoundError(f"the working directory {cwd} does not exist")
    params = ExecParams(
        command=isolated_python_argv(APPLY_PATCH_TARGET, [PINNED_FLAG]),
        cwd=cwd,
        timeout_ms=ctx.turn.shell_timeout_ms,
        env=dict(APPLY_PATCH_ENV),
        stdin=patch,
        writable_files=grants,
    )
    return await run_exec(
        params, sandbox, ctx.turn.sandbox_policy, ctx.turn.cwd, codex_home=ctx.codex_home
    )


def _failure_text(result: ExecResult, sandbox: SandboxType) -> str:
    """What the model and the patch_apply_end event are told about a failed patch."""
    if result.timed_out:
        return f"apply_patch timed out after {result.duration_ms} ms; no further hunks applied"
    text = result.stderr.strip() or f"apply_patch exited with code {result.exit_code}"
    if sandbox != "none" and result.sandbox_denied:
        text = f"{text} ({SANDBOX_REFUSED})"
    return text


def _emit_turn_diff(ctx: ToolContext) -> None:
    diff = ctx.diff_tracker.unified_diff()
    if diff:
        ctx.emit(TurnDiffEvent(unified_diff=diff))
