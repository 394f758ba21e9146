"""Core payloads in wire form: commands, patch changes, token usage, plans."""

from __future__ import annotations

import shlex

from codex_core.frontend.commands import display_command
from codex_core.protocol import AddChange, DeleteChange, FileChange, PlanItem, TokenUsage
from codex_core.servers.app_server import model_items as items
from codex_core.servers.app_server import model_notify as n


def command_line(command: list[str]) -> str:
    """A command's argv as one shell-quoted line (the wire's `command`)."""
    return shlex.join(command)


def command_actions(command: list[str]) -> list[items.CommandAction]:
    """What the command does, as the user would type it (not parsed further)."""
    return [items.CommandAction(command=display_command(command))]


def file_changes(changes: dict[str, FileChange]) -> list[items.FileUpdateChange]:
    """Core patch changes as wire `FileUpdateChange`s."""
    out: list[items.FileUpdateChange] = []
    for path, change in changes.items():
        if isinstance(change, AddChange):
            out.append(items.FileUpdateChange(path=path, kind=items.AddKind(), diff=change.content))
        elif isinstance(change, DeleteChange):
            out.append(
                items.FileUpdateChange(path=path, kind=items.DeleteKind(), diff=change.content)
            )
        else:
            kind = items.UpdateKind(move_path=change.move_path)
            out.append(items.FileUpdateChange(path=path, kind=kind, diff=change.unified_diff))
    return out


def usage_breakdown(usage: TokenUsage) -> n.TokenUsageBreakdown:
    """Core token usage in wire form."""
    return n.TokenUsageBreakdown(
        totalTokens=usage.total_tokens,
        inputTokens=usage.input_tokens,
        cachedInputTokens=usage.cached_input_tokens,
        outputTokens=usage.output_tokens,
        reasoningOutputTokens=usage.reasoning_output_tokens,
    )


def plan_steps(plan: list[PlanItem]) -> list[n.PlanStep]:
    """An `update_plan` call's steps in wire form (`in_progress` is `inProgress`)."""
    return [
        n.PlanStep(step=s.step, status="inProgress" if s.status == "in_progress" else s.status)
        for s in plan
    ]
