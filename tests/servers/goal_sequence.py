"""One sequence of `thread/goal/*` requests, played against 0.169 (recorded) and ours.

Every goal it creates is paused: 0.169 starts continuation turns for an active goal, which
this codex does not (see the README), so the recorded answers stay about the methods.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tests.servers.rpc_client import AppServerClient

OTHER = "7d0c4e4e-2f7b-4f43-9a51-5c0bb1b9a0f1"  # a well-formed id no thread has
SEQUENCE: list[tuple[str, dict[str, Any]]] = [
    ("thread/goal/get", {}),
    ("thread/goal/get", {"threadId": OTHER}),
    ("thread/goal/set", {"threadId": OTHER, "objective": "x", "status": "paused"}),
    ("thread/goal/clear", {"threadId": OTHER}),
    ("thread/goal/set", {"status": "paused"}),
    ("thread/goal/set", {"objective": "   "}),
    ("thread/goal/set", {"objective": "a", "tokenBudget": 0, "status": "paused"}),
    ("thread/goal/set", {"objective": "x" * 4001, "status": "paused"}),
    ("thread/goal/set", {"objective": "  ship it  ", "status": "paused", "tokenBudget": 900}),
    ("thread/goal/get", {}),
    ("thread/goal/set", {"objective": "ship it twice"}),
    ("thread/goal/set", {"tokenBudget": None}),
    ("thread/goal/set", {"status": "blocked", "origin": "automatic"}),
    ("thread/goal/set", {"status": "complete", "origin": "user"}),
    ("thread/goal/clear", {}),
    ("thread/goal/clear", {}),
    ("thread/goal/get", {}),
]
"""(method, params); the started thread's id is added where `threadId` is missing."""


def normalize(message: dict[str, Any], thread_id: str) -> dict[str, Any]:
    """A message without what differs between runs: ids, times, the request number."""
    text = json.dumps(message).replace(thread_id, "THREAD")
    text = re.sub(r'"(createdAt|updatedAt|emittedAtMs|id)": \d+', r'"\1": 0', text)
    normalized: dict[str, Any] = json.loads(text)
    return normalized


def play(client: AppServerClient, cwd: str) -> list[dict[str, Any]]:
    """Start a thread, play SEQUENCE; per request its answer and the goal notifications."""
    thread_id = client.call("thread/start", {"cwd": cwd})["result"]["thread"]["id"]
    out: list[dict[str, Any]] = []
    for method, params in SEQUENCE:
        answer = client.call(method, {"threadId": thread_id, **params})
        notes = [
            m for m in client.quiet_for(0.3) if str(m.get("method", "")).startswith("thread/goal")
        ]
        out.append(
            {
                "request": normalize({"method": method, "params": params}, thread_id),
                "answer": normalize(answer, thread_id),
                "notifications": [normalize(n, thread_id) for n in notes],
            }
        )
    return out
