"""A 200-turn synthetic session stays inside a small scripted context window and finishes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codex_core.protocol import ErrorEvent, TaskCompleteEvent
from tests.context.harness import open_session
from tests.integration.session_harness import run_turn, shutdown
from tests.support.model_server import ModelServer, Step, estimate_tokens
from tests.support.sse import MessageOut, message, turn, update_plan_call, usage

WINDOW = 12_000
TURNS = 200
FILLER = "lorem ipsum dolor sit amet " * 45  # ~1,200 bytes, ~300 tokens


def streamed(text: str) -> MessageOut:
    """`text` as a message streamed in four deltas: the window is what this test is about, and
    word-by-word streaming (~230 deltas an answer, ~45k in all) was most of its time."""
    step = -(-len(text) // 4)
    return message(text, chunks=[text[i : i + step] for i in range(0, len(text), step)])


def respond(body: Any) -> Step:
    """Model behaviour: a plan call, then an answer; a summary when asked with no tools.

    Usage reports what the request really weighed, so compaction decisions are honest.
    """
    used = estimate_tokens(body)
    last = body["input"][-1]
    if body.get("tools") == []:
        return turn(streamed("summary: " + FILLER[:600]), usage=usage(used, 150))
    if last.get("type") == "function_call_output":
        return turn(streamed("answer: " + FILLER), usage=usage(used, 300))
    return turn(update_plan_call([("work", "in_progress")]), usage=usage(used, 30))


async def test_two_hundred_turns_never_exceed_the_context_window(tmp_path: Path) -> None:
    with ModelServer(context_window=WINDOW, responder=respond) as server:
        session = await open_session(
            server, tmp_path / "home", tmp_path, f"model_context_window={WINDOW}"
        )
        completed = 0
        for number in range(TURNS):
            events = await run_turn(session, f"task {number}: {FILLER}")
            errors = [m.message for m in events if isinstance(m, ErrorEvent)]
            assert errors == [], f"turn {number}: {errors}"
            ends = [m for m in events if isinstance(m, TaskCompleteEvent)]
            assert ends and (ends[0].last_agent_message or "").startswith("answer:")
            completed += 1
        await shutdown(session)
        server.check_pairing()
    assert completed == TURNS
    sizes = [estimate_tokens(b) for b in server.bodies]
    assert max(sizes) <= WINDOW
    compactions = [b for b in server.bodies if b.get("tools") == []]
    assert len(compactions) >= 10  # it really had to compact, repeatedly
