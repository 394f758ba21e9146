"""Automatic and manual compaction against the scripted server, shapes as in Codex 0.169."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codex_core.protocol import BackgroundEvent, ErrorEvent, TaskCompleteEvent
from codex_core.session.compact import SUMMARY_PREFIX, SUMMARY_REQUEST
from tests.context.harness import compact, open_session, rollout_lines, token_counts, user_texts
from tests.integration.session_harness import run_turn, shutdown
from tests.support.model_server import ModelServer, api_error
from tests.support.sse import message, turn, update_plan_call, usage

LIMIT = ["model_auto_compact_token_limit=1000"]


def summary_of(text: str) -> str:
    return f"{SUMMARY_PREFIX}\n{text}"


def types_in(body: dict[str, Any]) -> list[str]:
    return [str(i["type"]) for i in body["input"]]


async def test_compaction_mid_turn_replaces_history_before_follow_up(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(
        turn(update_plan_call([("look", "in_progress")], call_id="p1"), usage=usage(4000, 100)),
        turn(message("SUMMARY ONE"), usage=usage(500, 50)),
        turn(message("done"), usage=usage(300, 10)),
    )
    session = await open_session(model_server, tmp_path / "home", tmp_path, *LIMIT)
    events = await run_turn(session, "do the thing")
    await shutdown(session)

    first, compaction, follow_up = model_server.bodies
    assert compaction["tools"] == []
    assert types_in(compaction) == [
        *types_in(first),
        "function_call",
        "function_call_output",
        "message",
    ]
    assert user_texts(compaction)[-1] == SUMMARY_REQUEST
    assert "function_call" not in types_in(follow_up)
    assert user_texts(follow_up)[-2:] == ["do the thing", summary_of("SUMMARY ONE")]
    assert user_texts(follow_up)[0].startswith("<environment_context>")
    ends = [m.last_agent_message for m in events if isinstance(m, TaskCompleteEvent)]
    assert ends == ["done"]
    assert any(isinstance(m, BackgroundEvent) for m in events)
    # the compaction's usage counts; afterwards `last` is an estimate of the new history
    counts = token_counts(events)
    assert counts[-1].info is not None
    assert counts[-1].info.total_token_usage.input_tokens == 4800
    estimate = [c for c in counts if c.info and c.info.last_token_usage.input_tokens == 0]
    assert estimate and estimate[0].info and 0 < estimate[0].info.last_token_usage.total_tokens


async def test_compacted_line_has_message_and_replacement_history(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(
        turn(update_plan_call([("a", "pending")], call_id="p1"), usage=usage(4000, 100)),
        turn(message("SUMMARY"), usage=usage(10, 5)),
        turn(message("done"), usage=usage(10, 5)),
    )
    session = await open_session(model_server, tmp_path / "home", tmp_path, *LIMIT)
    await run_turn(session, "go")
    path = session.rollout_path
    await shutdown(session)
    assert path is not None
    compacted = [line for line in rollout_lines(path) if line["type"] == "compacted"]
    assert len(compacted) == 1
    payload = compacted[0]["payload"]
    assert payload["message"] == summary_of("SUMMARY")
    follow_up = model_server.bodies[2]["input"]
    assert payload["replacement_history"] == follow_up[: len(payload["replacement_history"])]
    assert payload["replacement_history"][-1]["content"][0]["text"] == summary_of("SUMMARY")


async def test_no_compaction_after_last_response_then_before_next_turn(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(
        turn(message("first answer"), usage=usage(5000, 100)),
        turn(message("SUMMARY"), usage=usage(10, 5)),
        turn(message("second answer"), usage=usage(10, 5)),
    )
    session = await open_session(model_server, tmp_path / "home", tmp_path, *LIMIT)
    await run_turn(session, "one")
    assert len(model_server.requests) == 1  # over the limit, but no follow-up: no compaction
    await run_turn(session, "two")
    await shutdown(session)
    _, compaction, second = model_server.bodies
    assert compaction["tools"] == []
    assert "two" not in user_texts(compaction)  # compacted before the new message joined
    assert user_texts(second)[-3:] == ["one", summary_of("SUMMARY"), "two"]
    assert not any(
        i.get("role") == "assistant" for i in second["input"] if i.get("type") == "message"
    )


async def test_resume_restores_usage_and_compacts_before_first_turn(
    model_server: ModelServer, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    model_server.add(turn(message("big"), usage=usage(5000, 100)))
    session = await open_session(model_server, home, tmp_path, *LIMIT)
    await run_turn(session, "one")
    path = session.rollout_path
    await shutdown(session)
    assert path is not None

    model_server.add(
        turn(message("SUMMARY"), usage=usage(50, 5)), turn(message("ok"), usage=usage(70, 7))
    )
    resumed = await open_session(model_server, home, tmp_path, *LIMIT, resume_path=path)
    events = await run_turn(resumed, "two")
    await shutdown(resumed)
    _, compaction, after = model_server.bodies
    assert compaction["tools"] == [] and user_texts(compaction)[-1] == SUMMARY_REQUEST
    assert user_texts(after)[-2:] == [summary_of("SUMMARY"), "two"]
    last = token_counts(events)[-1].info
    assert last is not None
    assert last.total_token_usage.input_tokens == 5120  # the thread's running total
    assert last.total_token_usage.output_tokens == 112


async def test_compacted_session_resumes_with_the_summary(
    model_server: ModelServer, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    model_server.add(
        turn(update_plan_call([("a", "pending")], call_id="p1"), usage=usage(4000, 1)),
        turn(message("SUMMARY"), usage=usage(10, 1)),
        turn(message("done"), usage=usage(10, 1)),
    )
    session = await open_session(model_server, home, tmp_path, *LIMIT)
    await run_turn(session, "first task")
    path = session.rollout_path
    await shutdown(session)
    assert path is not None

    model_server.add(turn(message("again"), usage=usage(10, 1)))
    resumed = await open_session(model_server, home, tmp_path, *LIMIT, resume_path=path)
    await run_turn(resumed, "next task")
    await shutdown(resumed)
    body = model_server.bodies[-1]
    assert "function_call" not in types_in(body)
    assert user_texts(body)[-3:] == ["first task", summary_of("SUMMARY"), "next task"]


async def test_manual_compact_op_then_next_turn_carries_summary(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(
        turn(message("answer"), usage=usage(10, 1)),
        turn(message("MANUAL SUMMARY"), usage=usage(10, 1)),
        turn(message("after"), usage=usage(10, 1)),
    )
    session = await open_session(model_server, tmp_path / "home", tmp_path)
    await run_turn(session, "one")
    events = await compact(session)
    assert not any(isinstance(m, ErrorEvent) for m in events)
    await run_turn(session, "two")
    await shutdown(session)
    assert model_server.bodies[1]["tools"] == []
    assert user_texts(model_server.bodies[2])[-3:] == ["one", summary_of("MANUAL SUMMARY"), "two"]


async def test_compaction_error_leaves_history_untouched_and_says_so(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(
        turn(message("answer"), usage=usage(10, 1)),
        api_error(400, "invalid_request_error", "summary refused"),
        turn(message("after"), usage=usage(10, 1)),
    )
    session = await open_session(model_server, tmp_path / "home", tmp_path)
    await run_turn(session, "one")
    events = await compact(session)
    errors = [m.message for m in events if isinstance(m, ErrorEvent)]
    assert len(errors) == 1 and "left unchanged" in errors[0]
    await run_turn(session, "two")
    await shutdown(session)
    after = model_server.bodies[2]
    assert user_texts(after)[-2:] == ["one", "two"]
    assert any(i.get("role") == "assistant" for i in after["input"] if i["type"] == "message")
