"""`clientUserMessageId` on `turn/start` becomes the userMessage item's `clientId`, as codex-rust
0.169 shows it (observed side by side: `"clientId": "cid-1"` for a turn started with that id;
0.169 sends `null` without one, this server leaves the field out, which the schema allows)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.servers.conftest import AppServerFactory
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn


def _user_items(client: Any, thread_id: str, **extra: Any) -> list[dict[str, Any]]:
    params = {"threadId": thread_id, "input": [{"type": "text", "text": "hi"}], **extra}
    first = len(client.received)
    client.call("turn/start", params)
    client.notification("turn/completed")
    return [
        m["params"]["item"]
        for m in client.received[first:]
        if m.get("method") in ("item/started", "item/completed")
        and m["params"]["item"]["type"] == "userMessage"
    ]


def test_turn_start_client_user_message_id_is_the_items_client_id(
    app_server: AppServerFactory, model_server: ModelServer, workspace: Path
) -> None:
    model_server.add(turn(message("one")), turn(message("two")))
    client = app_server()
    client.initialize()
    thread_id = client.call("thread/start", {"cwd": str(workspace)})["result"]["thread"]["id"]
    client.notification("thread/started")
    with_id = _user_items(client, thread_id, clientUserMessageId="cid-1")
    assert [item["clientId"] for item in with_id] == ["cid-1", "cid-1"]
    without = _user_items(client, thread_id)
    assert len(without) == 2 and all("clientId" not in item for item in without)
    assert client.close() == 0
