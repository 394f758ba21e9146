"""Tool calls through the user's PreToolUse and PostToolUse hooks (the kernel's ToolHost).

Hooks see a call under their own name and input — `Bash` with `{"command": …}` for
`exec_command` and `shell`, `apply_patch` with the patch as `command`, `mcp__<server>__
<tool>` with its arguments — as Codex CLI 0.169 shows them. A PreToolUse block answers the
model in 0.169's words and the tool never runs; a PostToolUse block replaces the output.
Additional context waits in `take_context` for the kernel to put before the call's output.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from typing import Any

from codex_core.hooks.engine import HookScope, SessionHooks
from codex_core.kernel import ToolCall, ToolHost, ToolOutput
from codex_core.protocol import EventMsg, Message, ResponseItem
from codex_core.protocol.items import InputText
from codex_core.tools.registry import ToolRegistry

BASH = "Bash"
BASH_TOOLS = ("exec_command", "shell", "container.exec", "local_shell")


class HookedTools:
    """Runs each call between its PreToolUse and PostToolUse hooks."""

    def __init__(
        self,
        inner: ToolHost,
        registry: ToolRegistry,
        hooks: SessionHooks,
        scope: HookScope,
        emit: Callable[[EventMsg], None],
        turn_id: str,
    ) -> None:
        self.inner = inner
        self.registry = registry
        self.hooks = hooks
        self.scope = scope
        self.emit = emit
        self.turn_id = turn_id
        self._context: list[ResponseItem] = []

    def take_context(self) -> list[ResponseItem]:
        """Developer messages hooks added since the last call; the kernel puts them first."""
        items, self._context = self._context, []
        return items

    async def call(self, call: ToolCall) -> ToolOutput:
        """Run `call`, unless a PreToolUse hook blocks it."""
        subject = self._subject(call)
        if subject is None or not (
            self.hooks.any_for("PreToolUse") or self.hooks.any_for("PostToolUse")
        ):
            return await self.inner.call(call)
        name, tool_input = subject
        fields: dict[str, Any] = {
            "tool_name": name,
            "tool_input": tool_input,
            "tool_use_id": call.call_id,
        }
        pre = await self._run("PreToolUse", fields, name)
        if pre.blocked:
            reason = pre.reason or ""
            if name == BASH:
                return f"Command blocked by PreToolUse hook: {reason}. Command: {tool_input['command']}"
            return f"Tool call blocked by PreToolUse hook: {reason}. Tool: {name}"
        output = await self.inner.call(call)
        post_fields = {
            "tool_name": name,
            "tool_input": tool_input,
            "tool_response": _response(name, output),
            "tool_use_id": call.call_id,
        }
        post = await self._run("PostToolUse", post_fields, name)
        return post.replacement if post.replacement is not None else output

    async def _run(self, event: str, fields: dict[str, Any], name: str) -> Any:
        answer = await self.hooks.run(
            event, self.scope, fields, self.emit, turn_id=self.turn_id, subject=name
        )
        self._context.extend(developer_message(text) for text in answer.contexts)
        return answer

    def _subject(self, call: ToolCall) -> tuple[str, dict[str, Any]] | None:
        """The name and input hooks see for `call`, or None for tools hooks do not see."""
        entry = self.registry.entries.get(call.name)
        if call.namespace:
            entry = self.registry.entries.get(f"{call.namespace}__{call.name}", entry)
        if entry is not None and entry.hook_name is not None:
            return entry.hook_name, _arguments(call.payload)
        if call.name in BASH_TOOLS:
            command = _command_text(call)
            return (BASH, {"command": command}) if command is not None else None
        if call.name == "apply_patch":
            patch = call.payload if call.kind == "custom" else _arguments(call.payload).get("input")
            return ("apply_patch", {"command": patch}) if isinstance(patch, str) else None
        return None


def developer_message(text: str) -> Message:
    """A developer message holding exactly `text` (no wrapper, as 0.169 sends hook context)."""
    return Message(role="developer", content=[InputText(text=text)])


def _arguments(payload: str) -> dict[str, Any]:
    try:
        value = json.loads(payload) if payload.strip() else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _command_text(call: ToolCall) -> str | None:
    if call.action is not None:
        return command_text(list(call.action.command))
    args = _arguments(call.payload)
    if isinstance(args.get("cmd"), str):
        return str(args["cmd"])
    listed = args.get("command")
    if not isinstance(listed, list):
        return None
    return command_text([str(a) for a in listed])


def command_text(argv: list[str]) -> str:
    """A command as hooks see it: the script of `bash -lc SCRIPT`, else the argv quoted."""
    if len(argv) == 3 and argv[1] in ("-lc", "-c") and argv[0].endswith(("bash", "sh", "zsh")):
        return argv[2]
    return shlex.join(argv)


def _response(name: str, output: ToolOutput) -> Any:
    """What PostToolUse hooks get as `tool_response`: a command's output text as 0.169."""
    if not isinstance(output, str):
        return output
    if name == BASH:
        head, marker, rest = output.partition("Output:\n")
        if marker and (not head or head.endswith("\n")):
            return rest
    return output
