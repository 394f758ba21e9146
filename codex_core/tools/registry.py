"""The one tool registry: name → handler, spec, whether it mutates, which approval path it takes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from codex_core.client import ToolSpec
from codex_core.kernel import ToolCall, ToolOutput
from codex_core.protocol import AskForApproval
from codex_core.tools.context import ToolContext
from codex_core.tools.errors import RespondToModel

ToolHandler = Callable[[ToolContext, ToolCall], Awaitable[ToolOutput]]
"""Runs one call; returns the output text or raises an error from `codex_core.tools.errors`."""

SpecBuilder = Callable[[AskForApproval], ToolSpec]
"""The spec offered to the model (it may depend on the approval policy)."""

ApprovalPath = Literal["exec", "patch", "mcp", "none"]


@dataclass(frozen=True)
class ToolEntry:
    """One registered tool."""

    name: str
    handler: ToolHandler
    spec: SpecBuilder | None
    """None for tools the model may call but that are not offered (aliases, `local_shell`)."""
    mutating: bool
    approval: ApprovalPath
    hook_name: str | None = None
    """The name hooks see (`mcp__<server>__<tool>`); None: the hooks' name for the built-in."""


@dataclass
class ToolRegistry:
    """Tools by name; the router dispatches through it and the session offers its specs."""

    entries: dict[str, ToolEntry] = field(default_factory=dict)

    def register(self, entry: ToolEntry) -> None:
        """Add a tool; a second registration under the same name is a bug."""
        if entry.name in self.entries:
            raise ValueError(f"tool {entry.name!r} is registered twice")
        self.entries[entry.name] = entry

    def lookup(self, call: ToolCall) -> ToolEntry:
        """The entry for `call`, or `RespondToModel` naming the unknown tool."""
        name = "local_shell" if call.kind == "local_shell" else call.name
        if call.namespace:  # a function of a namespace tool (MCP): `<namespace>__<name>`
            name = f"{call.namespace}__{call.name}"
        entry = self.entries.get(name)
        if entry is None:
            raise RespondToModel(f"unsupported call: {call.name}")
        return entry

    def specs(self, approval_policy: AskForApproval) -> list[ToolSpec]:
        """The specs offered to the model, in registration order."""
        return [e.spec(approval_policy) for e in self.entries.values() if e.spec is not None]

    def names(self) -> Iterable[str]:
        """Every registered name."""
        return self.entries.keys()
