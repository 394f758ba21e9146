"""Hosted web searches shown as Codex 0.169 shows them, and usage read as 0.169 reads it.

Observed with codex-rust 0.169 on the same scripts (`codex exec --json`):

    {"type":"item.started","item":{"id":"item_1","type":"web_search","id":"ws_1","query":"",
      "action":{"type":"other"}}}
    {"type":"item.completed","item":{"id":"item_1","type":"web_search","id":"ws_1",
      "query":"weather in paris","action":{"type":"search","query":"weather in paris"}}}
    {"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":40,
      "cache_write_input_tokens":7,"output_tokens":30,"reasoning_output_tokens":12}}

(the key `id` really is there twice); without `response.output_item.added` the started item
already carries the query; human output prints `web search: weather in paris`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from codex_core.protocol import WebSearchBeginEvent, WebSearchEndEvent
from tests.context.harness import open_session
from tests.integration.session_harness import run_turn, shutdown
from tests.support.model_server import ModelServer
from tests.support.sse import Event, created, output_item_done, responses_event

QUERY = "weather in paris"
SEARCHING = {"type": "web_search_call", "id": "ws_1", "status": "in_progress"}
SEARCHED = {
    "type": "web_search_call",
    "id": "ws_1",
    "status": "completed",
    "action": {"type": "search", "query": QUERY},
}
ANSWER = {
    "type": "message",
    "id": "msg_1",
    "role": "assistant",
    "content": [{"type": "output_text", "text": "sunny"}],
}
USAGE = {
    "input_tokens": 100,
    "input_tokens_details": {"cached_tokens": 40, "cache_write_tokens": 7},
    "output_tokens": 30,
    "output_tokens_details": {"reasoning_tokens": 12},
    "total_tokens": 130,
}


def search_response(*, announced: bool = True) -> list[Event]:
    """A response that searches the web, then answers; `announced` sends `output_item.added`."""
    added = responses_event(
        {"type": "response.output_item.added", "output_index": 0, "item": SEARCHING}
    )
    done = responses_event({"type": "response.completed", "response": {"id": "r1", "usage": USAGE}})
    return [
        created(),
        *([added] if announced else []),
        output_item_done(SEARCHED, 0),
        output_item_done(ANSWER, 1),
        done,
    ]


def run_exec(
    codex_bin: Path, server: ModelServer, cwd: Path, *flags: str
) -> subprocess.CompletedProcess[str]:
    argv = [str(codex_bin), "exec", "--skip-git-repo-check", *flags, *server.cli_flags()]
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    return subprocess.run(
        [*argv, "search the web"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def search_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if '"web_search"' in line]


def test_exec_json_web_search_items_as_codex_prints_them(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(search_response())
    done = run_exec(codex_bin, model_server, tmp_path, "--json")
    assert done.returncode == 0, done.stderr
    assert search_lines(done.stdout) == [
        '{"type": "item.started", "item": {"id": "item_0", "type": "web_search", "id": "ws_1", '
        '"query": "", "action": {"type": "other"}}}',
        '{"type": "item.completed", "item": {"id": "item_0", "type": "web_search", '
        f'"id": "ws_1", "query": "{QUERY}", "action": {{"type": "search", "query": "{QUERY}"}}}}}}',
    ]
    # A JSON parser keeps the last `id`, as with the Codex CLI's line.
    parsed = [json.loads(line) for line in done.stdout.splitlines()]
    assert parsed[-3]["item"] == {
        "id": "ws_1",
        "type": "web_search",
        "query": QUERY,
        "action": {"type": "search", "query": QUERY},
    }
    assert parsed[-2]["item"] == {"id": "item_1", "type": "agent_message", "text": "sunny"}


def test_exec_json_unannounced_search_starts_with_its_query(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(search_response(announced=False))
    done = run_exec(codex_bin, model_server, tmp_path, "--json")
    assert done.returncode == 0, done.stderr
    started, completed = (json.loads(line) for line in search_lines(done.stdout))
    assert started["type"] == "item.started" and completed["type"] == "item.completed"
    assert started["item"] == completed["item"]
    assert started["item"]["query"] == QUERY


def test_exec_json_usage_reads_cache_write_and_reasoning_tokens(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(search_response())
    done = run_exec(codex_bin, model_server, tmp_path, "--json")
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "type": "turn.completed",
        "usage": {
            "input_tokens": 100,
            "cached_input_tokens": 40,
            "cache_write_input_tokens": 7,
            "output_tokens": 30,
            "reasoning_output_tokens": 12,
        },
    }


def test_exec_human_prints_one_line_per_search(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(search_response())
    done = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if "web search" in line] == [
        f"web search: {QUERY}"
    ]


async def test_session_emits_web_search_begin_and_end(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(search_response())
    session = await open_session(model_server, tmp_path / "home", tmp_path)
    events = await run_turn(session, "search")
    searches: list[Any] = [
        e for e in events if isinstance(e, WebSearchBeginEvent | WebSearchEndEvent)
    ]
    assert searches == [
        WebSearchBeginEvent(call_id="ws_1"),
        WebSearchEndEvent(call_id="ws_1", query=QUERY, action={"type": "search", "query": QUERY}),
    ]
    await shutdown(session)
