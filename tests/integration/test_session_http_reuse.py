"""A turn's model requests share their HTTP connection (issue 29): the end of a completed
response's body is read, so its kept-alive connection carries the next request instead of a
new one being opened (over https: a new handshake) for every request of a tool loop."""

from __future__ import annotations

from pathlib import Path

from codex_core.protocol import TaskCompleteEvent
from tests.integration.session_harness import (
    Workspace,
    run_turn,
    shutdown,
    start_session,
    workspace,
)
from tests.support.model_server import ModelServer
from tests.support.sse import message, shell_call, turn

__all__ = ["workspace"]  # the fixture, imported for pytest


async def test_session_http_reuse_requests_of_a_turn_share_one_connection(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    model_server.add(
        turn(shell_call(["bash", "-c", "true"], "c1")),
        turn(shell_call(["bash", "-c", "true"], "c2")),
        turn(message("done")),
    )
    session = await start_session(model_server, workspace, codex_home, "never")
    events = await run_turn(session, "run it twice")
    await shutdown(session)
    assert isinstance(events[-1], TaskCompleteEvent)
    peers = [request.peer for request in model_server.requests]
    assert len(peers) == 3 and None not in peers
    assert len(set(peers)) == 1


async def test_session_http_reuse_turns_share_one_connection(
    model_server: ModelServer, workspace: Workspace, codex_home: Path
) -> None:
    # A model client is made per turn; the session's pool keeps the connection for the next.
    model_server.add(turn(message("one")), turn(message("two")), turn(message("three")))
    session = await start_session(model_server, workspace, codex_home, "never")
    for prompt in ("first", "second", "third"):
        events = await run_turn(session, prompt)
        assert isinstance(events[-1], TaskCompleteEvent)
    await shutdown(session)
    peers = [request.peer for request in model_server.requests]
    assert len(peers) == 3 and None not in peers
    assert len(set(peers)) == 1
