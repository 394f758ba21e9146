"""A real Session in-process against the scripted server, with context settings as `-c` flags."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codex_core.config import ConfigOverrides, load_config
from codex_core.protocol import CompactOp, EventMsg, TokenCountEvent
from codex_core.session import Session
from tests.integration.session_harness import run_until, turn_ended
from tests.support.model_server import ModelServer
from tests.support.sse import Wire

API_KEY = "sk-test-context"


async def open_session(
    server: ModelServer,
    home: Path,
    cwd: Path,
    *settings: str,
    resume_path: Path | None = None,
    wire_api: Wire = "responses",
    overrides: ConfigOverrides | None = None,
) -> Session:
    """A session in `cwd` on the scripted server; `settings` are extra `-c key=value` strings."""
    config = load_config(
        overrides or ConfigOverrides(cwd=cwd, approval_policy="never", sandbox_mode="read-only"),
        [
            *server.config_overrides(wire_api, request_max_retries=0, stream_max_retries=0),
            'model="gpt-5.1-codex"',
            *settings,
        ],
        codex_home=home,
    )
    session = await Session.create(config, source="exec", resume_path=resume_path)
    await run_until(session, lambda msg: msg.type == "session_configured")
    return session


async def compact(session: Session) -> list[EventMsg]:
    """Submit a `compact` op and collect its events."""
    await session.submit(CompactOp())
    return await run_until(session, turn_ended)


def token_counts(events: list[EventMsg]) -> list[TokenCountEvent]:
    """The `token_count` events among `events`."""
    return [e for e in events if isinstance(e, TokenCountEvent)]


def texts(item: dict[str, Any]) -> str:
    """All text of a message item."""
    return "".join(str(p.get("text", "")) for p in item.get("content", []))


def user_texts(body: dict[str, Any]) -> list[str]:
    """Texts of the user messages of a Responses request."""
    return [
        texts(i) for i in body["input"] if i.get("type") == "message" and i.get("role") == "user"
    ]


def rollout_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of a rollout file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
