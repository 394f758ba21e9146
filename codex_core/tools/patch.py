"""The apply_patch tool: parse, compute changes, decide safety, apply, report the turn diff."""

from __future__ import annotations

import json
from pathlib import Path

from codex_core.apply_patch import (
    ApplyPatchError,
    FileChangeInfo,
    apply_patch,
    compute_changes,
    parse_patch,
)
from codex_core.kernel import TurnAbortRequested
from codex_core.protocol import (
    AddChange,
    DeleteChange,
    FileChange,
    PatchApplyBeginEvent,
    PatchApplyEndEvent,
    TurnDiffEvent,
    UpdateChange,
)
from codex_core.safety import AskUser, Reject, assess_patch_safety
from codex_core.tools.context import ToolContext


def patch_input_from_arguments(arguments: str) -> str:
    """The patch text of a function-style `apply_patch` call (`{"input": …}`)."""
    try:
        data = json.loads(arguments or "{}")
    except json.JSONDecodeError as err:
        raise ApplyPatchError(f"failed to parse function arguments: {err}") from None
    if not isinstance(data, dict) or not isinstance(data.get("input"), str):
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


async def run_apply_patch(
    ctx: ToolContext, call_id: str, patch_text: str, workdir: str | None
) -> str:
    """Apply one patch with the approval flow; returns the model's tool output."""
    cwd = ctx.resolve(workdir)
    try:
        changes = compute_changes(parse_patch(patch_text), cwd)
    except ApplyPatchError as err:
        return f"apply_patch verification failed: {err}"
    paths = touched_paths(changes)
    check = assess_patch_safety(
        paths,
        ctx.turn.approval_policy,
        ctx.turn.sandbox_policy,
        ctx.turn.cwd,
        ctx.approvals.patch_paths,
    )
    file_changes = protocol_changes(changes)
    if isinstance(check, Reject):
        return f"patch rejected: {check.reason}"
    auto_approved = not isinstance(check, AskUser)
    if isinstance(check, AskUser):
        decision = await ctx.request_patch_approval(call_id, file_changes, check.reason, None)
        if decision == "abort":
            raise TurnAbortRequested()
        if decision == "denied":
            return "patch rejected by user"
        if decision == "approved_for_session":
            ctx.approvals.patch_paths.update(p.resolve() for p in paths)

    ctx.diff_tracker.on_patch_begin(paths)
    ctx.emit(
        PatchApplyBeginEvent(call_id=call_id, auto_approved=auto_approved, changes=file_changes)
    )
    try:
        result = apply_patch(patch_text, cwd)
    except ApplyPatchError as err:
        ctx.emit(PatchApplyEndEvent(call_id=call_id, stderr=str(err), success=False))
        _emit_turn_diff(ctx)
        return f"apply_patch failed: {err}"
    except OSError as err:
        ctx.emit(PatchApplyEndEvent(call_id=call_id, stderr=str(err), success=False))
        return f"apply_patch failed: {err}"
    stdout = result.summary()
    ctx.emit(PatchApplyEndEvent(call_id=call_id, stdout=stdout, success=True))
    _emit_turn_diff(ctx)
    return stdout


def _emit_turn_diff(ctx: ToolContext) -> None:
    diff = ctx.diff_tracker.unified_diff()
    if diff:
        ctx.emit(TurnDiffEvent(unified_diff=diff))
