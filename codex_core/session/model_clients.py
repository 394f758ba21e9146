"""What a session starts for its turns: a model client per turn, and the MCP servers."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from codex_core.client import ModelClient
from codex_core.client.model_client import HttpPool
from codex_core.config import Config
from codex_core.turn_context import TurnContext

if TYPE_CHECKING:
    from codex_core.mcp.elicitation import PendingElicitations
    from codex_core.mcp.manager import McpConnectionManager
    from codex_core.protocol import EventMsg


def default_client_factory(
    config: Config, session_id: str, turn: TurnContext, *, pool: HttpPool | None = None
) -> ModelClient:
    """A real model client for the configured provider (on `pool`'s connections if given)."""
    from codex_core.auth import load_api_key
    from codex_core.model_family import supports_verbosity, wire_effort

    return ModelClient(
        config.model_provider,
        turn.model,
        provider_id=config.model_provider_id,
        session_id=session_id,
        api_key=load_api_key(config.codex_home, config.model_provider),
        effort=wire_effort(turn.effort),
        summary=turn.summary,
        verbosity=config.model_verbosity if supports_verbosity(turn.model) else None,
        pool=pool,
    )


def start_mcp_servers(
    config: Config,
    *,
    on_failure: Callable[[str], None],
    emit_elicitation: Callable[[EventMsg], None],
) -> tuple[PendingElicitations, McpConnectionManager] | None:
    """Start the configured MCP servers in the background (the SDK loads only if any);
    None when no server is enabled."""
    if not any(server.enabled for server in config.mcp_servers.values()):
        return None
    import os

    from codex_core.mcp.elicitation import PendingElicitations
    from codex_core.mcp.manager import McpConnectionManager

    elicitations = PendingElicitations(emit_elicitation)
    mcp = McpConnectionManager(
        config.mcp_servers,
        environ=os.environ,
        cwd=str(config.cwd),
        on_failure=lambda _name, text: on_failure(text),
        elicit=elicitations.ask,
    )
    mcp.start()
    return elicitations, mcp
