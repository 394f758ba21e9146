"""What a session holds outside itself, released in order when it shuts down."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codex_core.session.host import SessionHost


async def release(session: SessionHost, sub_id: str, *, hurry: bool) -> None:
    """Stop the session's processes and servers and close its connections and rollout.

    `hurry`: a running turn was cut off (Ctrl+C in `codex exec`), so MCP servers busy with
    the call it stopped are terminated instead of awaited.
    """
    await session.unified_exec.terminate_all()
    await session.shell_snapshot.aclose()
    if session.hooks is not None:  # only a session whose turns loaded its hooks has any
        from codex_core.session.turn_hooks import session_end

        await session_end(session, lambda msg: session.emit(sub_id, msg))
    if session.elicitations is not None:
        session.elicitations.cancel_all()
    if session.mcp is not None:
        await session.mcp.aclose(hurry=hurry)
    await session.http_pool.aclose()
    await session.storage.close()
