"""A scripted app-server for TUI tests: the real `AppServerCore` over an in-memory connection.

`ScriptedConnection` answers the client's requests (`thread/start`, `turn/start`, …) from a
table, records every message the client sends, and hands the client whatever server
messages a test pushes (`push`). `WireBoot` is a `FakeBoot` whose sessions are such cores,
so a pilot test drives the whole client side (wire → notices → cells) with no process.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from tests.tui.fake_core import PROJECT, FakeBoot

THREAD = "0199a0c2-7e3a-7d41-b0a1-5d2f8c9e1f00"


def thread_response(turns: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """`thread/start` / `thread/resume`'s result for a thread with `turns` (its past)."""
    return {
        "thread": {
            "id": THREAD,
            "cwd": PROJECT,
            "path": f"/sessions/rollout-{THREAD}.jsonl",
            "turns": turns or [],
        },
        "model": "gpt-5-codex",
        "modelProvider": "openai",
        "cwd": PROJECT,
        "approvalPolicy": "on-request",
        "sandbox": {"type": "workspaceWrite", "writableRoots": [], "networkAccess": False},
    }


class ScriptedConnection:
    """A `Connection` whose server is this object (see the module docstring)."""

    def __init__(self, thread: dict[str, Any]) -> None:
        self.thread = thread
        self.sent: list[dict[str, Any]] = []
        """Every message the client sent, parsed, in order."""
        self.refused: dict[str, str] = {}
        """Methods answered with an error (their message), as a server without them does."""
        self._frames: asyncio.Queue[str | None] = asyncio.Queue()

    def push(self, *messages: dict[str, Any]) -> None:
        """Server messages for the client (notifications or server requests)."""
        for message in messages:
            self._frames.put_nowait(json.dumps(message))

    def notify(self, method: str, **params: Any) -> None:
        """A notification of the thread."""
        self.push({"method": method, "params": {"threadId": THREAD, **params}})

    async def send(self, text: str) -> None:
        message = json.loads(text)
        self.sent.append(message)
        if "method" in message and "id" in message:
            refused = self.refused.get(message["method"])
            if refused is not None:
                error = {"code": -32600, "message": refused}
                self._frames.put_nowait(json.dumps({"id": message["id"], "error": error}))
                return
            result = self._answer(message["method"])
            self._frames.put_nowait(json.dumps({"id": message["id"], "result": result}))

    def _answer(self, method: str) -> Any:
        match method:
            case "thread/start" | "thread/resume":
                return self.thread
            case "history/metadata/read":
                return {"logId": 7, "entryCount": 0}
            case "turn/start":
                return {"turn": {"id": "turn-1", "status": "inProgress", "items": []}}
            case _:
                return {}

    async def recv(self) -> str:
        frame = await self._frames.get()
        if frame is None:
            raise ConnectionError("closed")
        return frame

    async def batches(self) -> AsyncIterator[list[str]]:
        while True:
            frame = await self._frames.get()
            frames = [frame]
            while not self._frames.empty():
                frames.append(self._frames.get_nowait())
            ready = [f for f in frames if f is not None]
            if ready:
                yield ready
            if None in frames:
                return

    async def close(self) -> None:
        self._frames.put_nowait(None)

    async def abort(self) -> None:
        self._frames.put_nowait(None)

    def gone(self) -> str:
        return "the scripted app server closed the connection"

    def idle(self) -> bool:
        """Whether the client took every pushed message."""
        return self._frames.empty()


class WireBoot(FakeBoot):
    """`FakeBoot` whose sessions are `AppServerCore`s over `ScriptedConnection`s."""

    def __init__(self, thread: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.thread = thread or thread_response()
        self.connections: list[ScriptedConnection] = []
        self.wire_cores: list[Any] = []

    @property
    def connection(self) -> ScriptedConnection:
        """The most recent session's connection."""
        return self.connections[-1]

    async def start(self, resume_path: Path | None) -> Any:  # type: ignore[override]
        from codex_tui.app.app_server_core import AppServerCore

        self.starts.append(resume_path)
        connection = ScriptedConnection(self.thread)
        self.connections.append(connection)
        core = AppServerCore(connection, None)
        await core.open_thread(None if resume_path is None else THREAD)
        self.wire_cores.append(core)
        return core
