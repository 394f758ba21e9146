"""Routes each tool call to its handler; unknown tools and bad arguments go back to the model."""

from __future__ import annotations

from codex_core.apply_patch import ApplyPatchError, extract_apply_patch_from_shell
from codex_core.kernel import ToolCall
from codex_core.tools.context import ToolContext
from codex_core.tools.patch import patch_input_from_arguments, run_apply_patch
from codex_core.tools.plan import run_update_plan
from codex_core.tools.shell import ShellArgs, ToolArgumentError, parse_shell_args, run_shell


class ToolRouter:
    """The kernel's ToolHost for one turn."""

    def __init__(self, ctx: ToolContext) -> None:
        self.ctx = ctx

    async def call(self, call: ToolCall) -> str:
        """Run `call` and return the text for its output item."""
        ctx = self.ctx
        if call.name in ("shell", "container.exec") or call.kind == "local_shell":
            try:
                args = self._shell_args(call)
            except ToolArgumentError as err:
                return str(err)
            embedded = extract_apply_patch_from_shell(args.command)
            if embedded is not None:
                patch_text, cd = embedded
                workdir = cd if cd is not None else args.workdir
                if cd is not None and args.workdir:
                    workdir = str(ctx.resolve(args.workdir) / cd)
                return await run_apply_patch(ctx, call.call_id, patch_text, workdir)
            return await run_shell(ctx, call.call_id, args)
        if call.name == "apply_patch":
            if call.kind == "custom":
                patch_text = call.payload
            else:
                try:
                    patch_text = patch_input_from_arguments(call.payload)
                except ApplyPatchError as err:
                    return str(err)
            return await run_apply_patch(ctx, call.call_id, patch_text, None)
        if call.name == "update_plan":
            return run_update_plan(ctx, call.payload)
        return f"unsupported call: {call.name}"

    @staticmethod
    def _shell_args(call: ToolCall) -> ShellArgs:
        if call.action is not None:
            return ShellArgs(
                command=call.action.command,
                workdir=call.action.working_directory,
                timeout_ms=call.action.timeout_ms,
            )
        return parse_shell_args(call.payload)
