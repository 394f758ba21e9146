"""web_search_call items the model produced stay in the history, also across a resume."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.context.harness import open_session, rollout_lines
from tests.integration.session_harness import run_turn, shutdown
from tests.support.model_server import ModelServer
from tests.support.sse import Event, message, responses_event, turn

SEARCH = {
    "type": "web_search_call",
    "id": "ws_1",
    "status": "completed",
    "action": {"type": "search", "query": "python asyncio"},
}


def searched_then_answered() -> list[Event]:
    answer: dict[str, Any] = {
        "type": "message",
        "id": "m1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "found", "annotations": []}],
    }
    done = {"id": "r1", "usage": {"input_tokens": 5, "output_tokens": 1, "total_tokens": 6}}
    return [
        responses_event({"type": "response.created", "response": {"id": "r1"}}),
        responses_event({"type": "response.output_item.done", "output_index": 0, "item": SEARCH}),
        responses_event({"type": "response.output_item.done", "output_index": 1, "item": answer}),
        responses_event({"type": "response.completed", "response": done}),
    ]


async def test_web_search_call_is_kept_and_resumed(
    model_server: ModelServer, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    model_server.add(searched_then_answered(), turn(message("again")), turn(message("more")))
    session = await open_session(model_server, home, tmp_path)
    await run_turn(session, "search it")
    await run_turn(session, "and then")
    path = session.rollout_path
    await shutdown(session)
    assert path is not None
    assert SEARCH in [line["payload"] for line in rollout_lines(path)]
    sent = {k: v for k, v in SEARCH.items() if k != "id"}  # input items go without ids
    assert sent in model_server.bodies[1]["input"]

    resumed = await open_session(model_server, home, tmp_path, resume_path=path)
    await run_turn(resumed, "after resume")
    await shutdown(resumed)
    assert sent in model_server.bodies[2]["input"]
