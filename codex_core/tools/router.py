"""The default tool registry and the router the kernel calls through (its ToolHost)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from codex_core.kernel import ToolCall, ToolOutput
from codex_core.model_family import ExecToolStyle
from codex_core.tools.context import ToolContext
from codex_core.tools.errors import RespondToModel
from codex_core.tools.registry import ToolEntry, ToolRegistry
from codex_core.tools.specs import (
    apply_patch_tool,
    exec_command_tool,
    shell_tool,
    update_plan_tool,
    write_stdin_tool,
)

if TYPE_CHECKING:
    from codex_core.tools.shell import ShellArgs

# The handlers import their implementations (commands, sandboxing, patches) on their first
# call: a session's first model request needs only the specs (issue 29).

PATCH_PATH_MARKERS = ("*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:")


def _shell_args(call: ToolCall) -> ShellArgs:
    from codex_core.tools.shell import ShellArgs, parse_shell_args

    if call.action is not None:
        return ShellArgs(
            command=call.action.command,
            workdir=call.action.working_directory,
            timeout_ms=call.action.timeout_ms,
        )
    return parse_shell_args(call.payload)


def _refuse_nul_in_patch_paths(patch_text: str) -> None:
    for line in patch_text.splitlines():
        if line.startswith(PATCH_PATH_MARKERS) and "\0" in line:
            raise RespondToModel(f"invalid path in patch (NUL byte): {line.replace(chr(0), '␀')}")


async def handle_shell(ctx: ToolContext, call: ToolCall) -> str:
    """`shell`, `container.exec` and `local_shell`; an embedded apply_patch goes to the patcher."""
    from codex_core.apply_patch.shell import extract_apply_patch_from_shell
    from codex_core.tools.patch import run_apply_patch
    from codex_core.tools.shell import run_shell

    args = _shell_args(call)
    if any("\0" in arg for arg in args.command) or "\0" in (args.workdir or ""):
        raise RespondToModel("`command` and `workdir` must not contain NUL bytes")
    embedded = extract_apply_patch_from_shell(args.command)
    if embedded is not None:
        patch_text, cd = embedded
        _refuse_nul_in_patch_paths(patch_text)
        workdir = cd if cd is not None else args.workdir
        if cd is not None and args.workdir:
            workdir = str(ctx.resolve(args.workdir) / cd)
        return await run_apply_patch(ctx, call.call_id, patch_text, workdir)
    return await run_shell(ctx, call.call_id, args)


async def handle_apply_patch(ctx: ToolContext, call: ToolCall) -> str:
    """`apply_patch`, freeform (custom) or as a function taking `{"input": …}`."""
    from codex_core.apply_patch.errors import ApplyPatchError
    from codex_core.tools.patch import patch_input_from_arguments, run_apply_patch

    if call.kind == "custom":
        patch_text = call.payload
    else:
        try:
            patch_text = patch_input_from_arguments(call.payload)
        except ApplyPatchError as err:
            raise RespondToModel(str(err)) from None
    _refuse_nul_in_patch_paths(patch_text)
    return await run_apply_patch(ctx, call.call_id, patch_text, None)


async def handle_update_plan(ctx: ToolContext, call: ToolCall) -> str:
    """`update_plan`: forwards the plan to frontends."""
    from codex_core.tools.plan import run_update_plan

    return run_update_plan(ctx, call.payload)


async def handle_exec_command(ctx: ToolContext, call: ToolCall) -> str:
    """`exec_command`: starts a command the model can keep driving."""
    from codex_core.tools.unified_exec import handle_exec_command as run

    return await run(ctx, call)


async def handle_write_stdin(ctx: ToolContext, call: ToolCall) -> str:
    """`write_stdin`: writes to (or polls) a command `exec_command` started."""
    from codex_core.tools.unified_exec import handle_write_stdin as run

    return await run(ctx, call)


def default_registry(
    exec_style: ExecToolStyle = "unified_exec", *, offer_plan: bool = True
) -> ToolRegistry:
    """Every tool this build offers or accepts.

    `exec_style` (from the model family) decides which command tools are offered, and
    `offer_plan` whether `update_plan` is; tools not offered stay registered, so a call the
    model makes anyway still runs.
    """
    unified = exec_style == "unified_exec"
    registry = ToolRegistry()
    for entry in (
        ToolEntry(
            "exec_command",
            handle_exec_command,
            exec_command_tool if unified else None,
            mutating=True,
            approval="exec",
        ),
        ToolEntry(
            "write_stdin",
            handle_write_stdin,
            (lambda _policy: write_stdin_tool()) if unified else None,
            mutating=True,
            approval="none",
        ),
        ToolEntry(
            "shell", handle_shell, None if unified else shell_tool, mutating=True, approval="exec"
        ),
        ToolEntry("container.exec", handle_shell, None, mutating=True, approval="exec"),
        ToolEntry("local_shell", handle_shell, None, mutating=True, approval="exec"),
        ToolEntry(
            "update_plan",
            handle_update_plan,
            (lambda _policy: update_plan_tool()) if offer_plan else None,
            mutating=False,
            approval="none",
        ),
        ToolEntry(
            "apply_patch",
            handle_apply_patch,
            lambda _policy: apply_patch_tool(),
            mutating=True,
            approval="patch",
        ),
    ):
        registry.register(entry)
    return registry


class ToolRouter:
    """The kernel's ToolHost for one turn: looks the call up and runs its handler."""

    def __init__(self, ctx: ToolContext, registry: ToolRegistry | None = None) -> None:
        self.ctx = ctx
        self.registry = registry if registry is not None else default_registry()

    async def call(self, call: ToolCall) -> ToolOutput:
        """Run `call`; returns its output text or raises a `codex_core.tools.errors` error."""
        return await self.registry.lookup(call).handler(self.ctx, call)
