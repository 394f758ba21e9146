"""Goals are shared with codex-rust 0.169: a goals_1.sqlite either tool made, the other uses.

Each direction: the first tool runs a turn and sets a paused goal, the second resumes the
thread, reads the goal, completes it and clears it (an active goal would make 0.169 start
continuation turns; a paused one keeps the run about storage).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.compat.conftest import MODEL, Cli
from tests.servers.rpc_client import AppServerClient
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn


def _client(cli: Cli, server: ModelServer, cwd: Path) -> AppServerClient:
    flags = [*server.cli_flags(), "-c", MODEL]
    argv = [cli.binary, *flags, "app-server", "--listen", "stdio://"]
    client = AppServerClient(cli.home, cwd, flags, None, argv=argv)
    client.initialize()
    return client


@pytest.mark.parametrize("writer", ["ours", "rust"])
def test_goals_set_by_one_tool_are_read_changed_and_cleared_by_the_other(
    writer: str, ours: Cli, rust: Cli, project: Path
) -> None:
    first, second = (ours, rust) if writer == "ours" else (rust, ours)
    with ModelServer([turn(message("noted"))]) as server:
        client = _client(first, server, project)
        started = client.call("thread/start", {"cwd": str(project)})
        thread_id = started["result"]["thread"]["id"]
        client.call(
            "turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "hi"}]}
        )
        client.notification("turn/completed", timeout=60)
        goal = {"objective": "ship 2.0", "status": "paused", "tokenBudget": 900}
        made = client.call("thread/goal/set", {"threadId": thread_id, **goal})["result"]["goal"]
        assert client.close() == 0

        client = _client(second, server, project)
        assert "result" in client.call("thread/resume", {"threadId": thread_id}, timeout=60)
        read = client.call("thread/goal/get", {"threadId": thread_id})["result"]["goal"]
        done = client.call("thread/goal/set", {"threadId": thread_id, "status": "complete"})
        cleared = client.call("thread/goal/clear", {"threadId": thread_id})["result"]
        client.close()
    assert read == made
    assert done["result"]["goal"]["status"] == "complete"
    assert cleared == {"cleared": True}
