"""The scripted model server itself: endpoints, pacing, pairing reports, JSON scripts, CLI."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from codex_core.client import ModelClient, OutputTextDelta, Prompt
from codex_core.protocol.items import user_message
from tests.conftest import REPO_ROOT
from tests.support import sse
from tests.support.model_server import ModelServer, slow
from tests.support.sse_render import render
from tests.support.steps import step_from_json

PROMPT = Prompt("sys", [user_message("hi")], [])


async def test_model_server_rejects_unknown_paths_without_using_a_step() -> None:
    with ModelServer([sse.turn(sse.message("kept"))]) as server:
        async with httpx.AsyncClient() as http:
            response = await http.post(server.url + "/v1/embeddings", json={})
        assert response.status_code == 404
        assert "no endpoint /v1/embeddings" in response.text
        assert server.remaining == 1


async def test_model_server_accepts_any_prefix_and_picks_the_wire_from_the_path() -> None:
    with ModelServer([sse.turn(sse.message("a")), sse.turn(sse.message("b"))]) as server:
        async with httpx.AsyncClient() as http:
            first = await http.post(
                server.url + "/openai/deployments/x/responses?api-version=1", json={}
            )
            second = await http.post(server.url + "/chat/completions", json={})
        assert "event: response.created" in first.text
        assert first.headers["content-type"] == "text/event-stream"
        assert second.text.rstrip().endswith("data: [DONE]")
        assert [r.wire for r in server.requests] == ["responses", "chat"]
        server.assert_script_consumed()


async def test_model_server_slow_step_streams_events_one_by_one() -> None:
    with ModelServer([slow(sse.turn(sse.message("one two three")), 0.05)]) as server:
        client = ModelClient(server.provider(), "m", session_id="s", api_key=None)
        deltas = 0
        started = time.monotonic()
        async for event in client.stream(PROMPT):
            deltas += isinstance(event, OutputTextDelta)
        elapsed = time.monotonic() - started
        await client.aclose()
    assert deltas == 3
    # A lower bound only (never flaky): the server paused between events, so the stream
    # cannot have finished sooner, however fast or loaded the machine.
    pauses = len(render(sse.turn(sse.message("one two three")), "responses")) - 1
    assert elapsed >= 0.05 * pauses * 0.9


def test_model_server_check_pairing_names_the_request_and_orphan() -> None:
    with ModelServer([sse.turn(sse.message("x"))]) as server:
        body = {"input": [{"type": "function_call_output", "call_id": "lost", "output": ""}]}
        httpx.post(server.base_url + "/responses", json=body)
        with pytest.raises(AssertionError, match=r"request #1 \(/v1/responses\).*orphan.*'lost'"):
            server.check_pairing()


def test_model_server_json_steps_build_the_same_turns() -> None:
    step = step_from_json(
        {
            "turn": [{"shell": ["ls"], "call_id": "c1"}, {"message": "hi"}],
            "usage": {"input": 5, "output": 2},
        }
    )
    assert isinstance(step, sse.Turn)
    assert [type(i).__name__ for i in step.items] == ["FunctionCallOut", "MessageOut"]
    assert step.usage == sse.usage(input=5, output=2)


def test_model_server_runs_standalone_from_a_json_script(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"turn": [{"message": "hello from the script"}]}]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.support.model_server", "--script", str(script)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        base_url = line.split(" at ")[1].split()[0]
        reply = httpx.post(base_url + "/chat/completions", json={"messages": []}, timeout=10)
        assert reply.headers["content-type"] == "text/event-stream"
        assert '"content": "hello "' in reply.text and "data: [DONE]" in reply.text
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def test_model_server_exhausted_script_answers_500_with_a_clear_body() -> None:
    with ModelServer() as server:
        async with httpx.AsyncClient() as http:
            response = await http.post(server.base_url + "/responses", json={})
    assert response.status_code == 500
    assert "the script has no step for request #1" in response.json()["error"]["message"]
