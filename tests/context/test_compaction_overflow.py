"""A summary request refused as too long: drop the oldest history item and retry, as 0.169 does.

Observed with codex-rust 0.169 (mid-turn compaction, the server answering the summary
request with `context_length_exceeded`): each retry sends the history without its oldest
item — a function call leaves together with its output — and logs "Context window exceeded
while compacting; removing oldest history item"; once nothing is left to drop, the turn
fails with one error line; as soon as a request fits, the summary replaces the history.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codex_core.protocol import ErrorEvent, TaskCompleteEvent
from codex_core.session.autocompact import TOO_LONG_TO_COMPACT
from codex_core.session.compact import SUMMARY_PREFIX, SUMMARY_REQUEST
from tests.context.harness import open_session, user_texts
from tests.integration.session_harness import run_turn, shutdown
from tests.support.model_server import ModelServer, Step, context_length_exceeded
from tests.support.sse import message, turn, update_plan_call, usage

LIMIT = "model_auto_compact_token_limit=1000"


def kinds(body: dict[str, Any]) -> list[str]:
    """`role:first words` for messages, the type for other items."""
    out = []
    for item in body["input"]:
        if item["type"] == "message":
            text = "".join(p.get("text", "") for p in item["content"])
            out.append(f"{item['role']}:{text[:12]}")
        else:
            out.append(item["type"])
    return out


def scripted(refusals: int) -> ModelServer:
    """Tool call over the limit, then `refusals` too-long answers to summary requests."""
    state = {"requests": 0, "refused": 0}

    def respond(body: Any) -> Step:
        state["requests"] += 1
        if state["requests"] == 1:
            plan = update_plan_call([("look", "in_progress")], call_id="p1")
            return turn(plan, usage=usage(4000, 100))
        if user_texts(body)[-1] == SUMMARY_REQUEST:
            if state["refused"] < refusals:
                state["refused"] += 1
                return context_length_exceeded(1000)
            return turn(message("SUMMARY"), usage=usage(50, 5))
        return turn(message("done"), usage=usage(30, 1))

    return ModelServer(responder=respond)


async def test_too_long_summary_request_drops_oldest_items_until_it_fits(tmp_path: Path) -> None:
    with scripted(refusals=2) as server:
        session = await open_session(server, tmp_path / "home", tmp_path, LIMIT)
        events = await run_turn(session, "do the thing")
        await shutdown(session)
    first, *summaries, follow_up = server.bodies
    assert [kinds(b) for b in summaries] == [
        [
            "user:<environment",
            "user:do the thing",
            "function_call",
            "function_call_output",
            "user:Pause the ta",
        ],
        ["user:do the thing", "function_call", "function_call_output", "user:Pause the ta"],
        ["function_call", "function_call_output", "user:Pause the ta"],
    ]
    assert kinds(first) == kinds(summaries[0])[:2]
    assert user_texts(follow_up)[-2:] == ["do the thing", f"{SUMMARY_PREFIX}\nSUMMARY"]
    assert [m.last_agent_message for m in events if isinstance(m, TaskCompleteEvent)] == ["done"]
    assert not [m for m in events if isinstance(m, ErrorEvent)]


async def test_summary_request_that_never_fits_fails_the_turn_clearly(tmp_path: Path) -> None:
    with scripted(refusals=100) as server:
        session = await open_session(server, tmp_path / "home", tmp_path, LIMIT)
        events = await run_turn(session, "do the thing")
        await shutdown(session)
    summaries = server.bodies[1:]
    # environment, user message, then the call together with its output: 4 retries in all
    assert [len(b["input"]) for b in summaries] == [5, 4, 3, 1]
    assert kinds(summaries[-1]) == ["user:Pause the ta"]
    assert [m.message for m in events if isinstance(m, ErrorEvent)] == [TOO_LONG_TO_COMPACT]
    assert isinstance(events[-1], TaskCompleteEvent)
