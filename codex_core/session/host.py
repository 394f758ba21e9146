"""What a Session offers the parts that run its turns (`TurnRunner`, `Compactor`, the kernel host).

Those parts depend on this protocol, not on `Session`, so `session.py` can import them
without an import circle; `Session` satisfies it structurally (mypy checks where it is passed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from codex_core.client import ModelClient
    from codex_core.client.model_client import HttpPool
    from codex_core.config import Config
    from codex_core.exec.shell_snapshot import ShellSnapshot
    from codex_core.execpolicy import RuleSet
    from codex_core.hooks.engine import SessionHooks
    from codex_core.mcp.elicitation import PendingElicitations
    from codex_core.mcp.manager import McpConnectionManager
    from codex_core.protocol import (
        EventMsg,
        OverrideTurnContextOp,
        ResponseItem,
        TokenUsage,
        UserTurnOp,
    )
    from codex_core.session.approvals import PendingApprovals
    from codex_core.session.skills_context import SessionSkills
    from codex_core.session.storage import SessionStorage
    from codex_core.session.undo import UndoStack
    from codex_core.tools.context import SessionApprovals, ToolContext
    from codex_core.turn_context import TurnContext
    from codex_core.unified_exec.manager import ProcessManager

ClientFactory = Callable[["Config", str, "TurnContext"], "ModelClient"]


class TurnHost(Protocol):
    """The session state and callbacks a running turn reads and updates."""

    config: Config
    session_id: str
    turn: TurnContext
    history: list[ResponseItem]
    storage: SessionStorage
    client_factory: ClientFactory
    approvals: PendingApprovals
    session_approvals: SessionApprovals
    rules: RuleSet
    tool_ctx: ToolContext | None
    context_turn: TurnContext | None
    mcp: McpConnectionManager | None
    unified_exec: ProcessManager
    shell_snapshot: ShellSnapshot
    undo: UndoStack
    skills: SessionSkills
    hooks: SessionHooks | None
    last_usage: TokenUsage | None

    def emit(self, sub_id: str, msg: EventMsg) -> None:
        """Queue an event for the frontend and record it."""

    def turn_with(self, op: UserTurnOp | OverrideTurnContextOp) -> TurnContext:
        """The turn context with the fields `op` sets."""

    def context_window(self) -> int | None:
        """The model's context window, if known."""

    def effective_context_window(self) -> int | None:
        """The part of the window the conversation may fill."""

    def on_usage(self, sub_id: str, usage: TokenUsage | None) -> None:
        """Fold one response's usage into the totals and report it."""

    def set_last_usage(self, sub_id: str, usage: TokenUsage) -> None:
        """Set what the context holds now and report it."""


class SessionHost(TurnHost, Protocol):
    """A turn's host and what else the session holds (released at its shutdown)."""

    elicitations: PendingElicitations | None
    http_pool: HttpPool
