"""The hook points of a turn: SessionStart, UserPromptSubmit, the tool hooks, Stop.

Hooks are loaded once per session, on its first turn (off the start-up path). What they
add reaches the model where Codex CLI 0.169 puts it: SessionStart's context after the
environment, UserPromptSubmit's right after the prompt, the tool hooks' before the call's
output; a Stop hook that blocks continues the same turn with a `<hook_prompt>` message.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from codex_core.frontend.git import find_git_root
from codex_core.hooks.engine import BYPASS_WARNING, HookScope, SessionHooks
from codex_core.hooks.sources import load_hooks
from codex_core.kernel import ToolHost
from codex_core.protocol import EventMsg, Message, ResponseItem, WarningEvent
from codex_core.protocol.common import ReviewDecision
from codex_core.protocol.items import InputText
from codex_core.session.hook_tools import BASH, HookedTools, command_text, developer_message
from codex_core.tools.context import ToolContext
from codex_core.tools.registry import ToolRegistry
from codex_core.turn_context import TurnContext

if TYPE_CHECKING:
    from codex_core.session.host import TurnHost

MAX_STOP_CONTINUATIONS = 20
"""A Stop hook that always blocks would loop forever; the turn ends after this many."""


async def session_hooks(s: TurnHost, emit: Callable[[EventMsg], None]) -> SessionHooks:
    """The session's hooks, loaded on first use; their warnings are said once."""
    if s.hooks is None:
        config = s.config
        root = find_git_root(config.cwd) or config.cwd
        trusted = config.project_trust_level(root) == "trusted"
        catalog = await asyncio.to_thread(
            load_hooks, config.codex_home, config.hooks, root if trusted else None, config.plugins
        )
        s.hooks = SessionHooks(catalog, bypass_trust=config.bypass_hook_trust)
        for warning in catalog.warnings:
            emit(WarningEvent(message=warning))
        if config.bypass_hook_trust:
            emit(WarningEvent(message=BYPASS_WARNING))
    return s.hooks


async def session_end(s: TurnHost, emit: Callable[[EventMsg], None]) -> None:
    """SessionEnd, when the session shuts down (`reason: "other"`, as 0.169 sends)."""
    if s.hooks is not None and s.hooks.any_for("SessionEnd"):
        hooks = TurnHooks(s, s.hooks, s.turn, emit)
        await hooks.hooks.run("SessionEnd", hooks.scope, {"reason": "other"}, emit)


class TurnHooks:
    """The hooks of one turn."""

    def __init__(
        self, s: TurnHost, hooks: SessionHooks, turn: TurnContext, emit: Callable[[EventMsg], None]
    ) -> None:
        self.hooks = hooks
        self.emit = emit
        self.turn_id = str(uuid.uuid4())
        path = s.storage.path
        self.scope = HookScope(
            session_id=s.session_id,
            transcript_path=str(path) if path else None,
            cwd=turn.cwd,
            model=turn.model,
            permission_mode="bypassPermissions" if turn.approval_policy == "never" else "default",
        )
        self._tools: HookedTools | None = None

    async def session_start(self, source: str) -> list[ResponseItem]:
        """SessionStart (`startup` or `resume`): the developer messages it adds."""
        if not self.hooks.any_for("SessionStart"):
            return []
        answer = await self.hooks.run(
            "SessionStart", self.scope, {"source": source}, self.emit, subject=source
        )
        return [developer_message(text) for text in answer.contexts]

    async def prompt(self, text: str) -> tuple[bool, list[ResponseItem]]:
        """UserPromptSubmit: whether the prompt is dropped, and the messages it adds."""
        if not self.hooks.any_for("UserPromptSubmit"):
            return False, []
        answer = await self.hooks.run(
            "UserPromptSubmit", self.scope, {"prompt": text}, self.emit, turn_id=self.turn_id
        )
        return answer.blocked, [developer_message(t) for t in answer.contexts]

    def tools(self, inner: ToolHost, registry: ToolRegistry) -> ToolHost:
        """`inner` behind the PreToolUse / PostToolUse hooks."""
        self._tools = HookedTools(inner, registry, self.hooks, self.scope, self.emit, self.turn_id)
        return self._tools

    def guard_approvals(self, ctx: ToolContext) -> ToolContext:
        """Ask PermissionRequest hooks before the user about a command (0.169): a hook that
        denies refuses it, one that allows runs it, and otherwise the user is asked."""
        if not self.hooks.any_for("PermissionRequest"):
            return ctx
        ask = ctx.request_exec_approval

        async def ask_hooks_first(
            call_id: str,
            command: list[str],
            cwd: Path,
            reason: str | None,
            prefix: list[str] | None,
        ) -> ReviewDecision:
            tool_input = {"command": command_text(command)}
            if reason:
                tool_input["description"] = reason
            answer = await self.hooks.run(
                "PermissionRequest",
                self.scope,
                {"tool_name": BASH, "tool_input": tool_input},
                self.emit,
                turn_id=self.turn_id,
                subject=BASH,
            )
            if answer.permission == "deny":
                return "denied"
            if answer.permission == "allow":
                return "approved"
            return await ask(call_id, command, cwd, reason, prefix)

        ctx.request_exec_approval = ask_hooks_first
        return ctx

    async def around_compaction(self, event: str, trigger: str) -> None:
        """PreCompact / PostCompact (`trigger`: `manual` or `auto`); they only observe."""
        if self.hooks.any_for(event):
            await self.hooks.run(
                event,
                self.scope,
                {"trigger": trigger},
                self.emit,
                turn_id=self.turn_id,
                subject=trigger,
            )

    def take_context(self) -> list[ResponseItem]:
        """What the tool hooks added since the last call's output."""
        return self._tools.take_context() if self._tools is not None else []

    async def stop(self, last_message: str | None, active: bool) -> list[ResponseItem]:
        """Stop: the `<hook_prompt>` messages that continue the turn (none: it ends)."""
        if not self.hooks.any_for("Stop"):
            return []
        fields = {"stop_hook_active": active, "last_assistant_message": last_message}
        answer = await self.hooks.run("Stop", self.scope, fields, self.emit, turn_id=self.turn_id)
        return [
            Message(
                role="user",
                content=[
                    InputText(text=f'<hook_prompt hook_run_id="{run_id}">{reason}</hook_prompt>')
                ],
            )
            for run_id, reason in answer.continuations
        ]
