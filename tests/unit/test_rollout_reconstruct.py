"""Resume reconstruction, fork, archive and lookup, on Codex-format fixture rollouts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from codex_core.rollout import (
    Reconstructed,
    Rollout,
    archive_session,
    find_session_path,
    fork_rollout,
    read_rollout,
    reconstruct,
)
from codex_core.rollout.reader import RolloutLine
from codex_core.rollout.replay import compacted_history

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rollouts"
PARSER_ID = "0199a213-81c0-7800-8aa1-bbab2a035a53"
APP_ID = "0199a7c4-0e55-7d31-b7a2-5f0c9e1d2a88"
PARSER = FIXTURES / f"rollout-2025-10-01T12-00-00-{PARSER_ID}.jsonl"
APP = FIXTURES / f"rollout-2025-10-02T09-30-00-{APP_ID}.jsonl"


def _user(text: str) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def _assistant(text: str) -> dict[str, Any]:
    return {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": text}],
    }


def _install(codex_home: Path, fixture: Path, day: str) -> Path:
    folder = codex_home / "sessions" / day
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(fixture, folder / fixture.name))


def test_rollout_reconstruct_codex_fixture_with_compaction() -> None:
    rebuilt = reconstruct(read_rollout(PARSER))
    instructions, environment = read_rollout(PARSER).lines[1:3]
    assert rebuilt == Reconstructed(
        session_id=PARSER_ID,
        history=[
            instructions.payload,
            environment.payload,
            _user("The tokenizer test fails on empty input, please fix it"),
            _user(
                "Another model worked on this task before you. Its summary:\n"
                "Fixed tokenize() for empty input in parser/tokenizer.py; tests pass."
            ),
            _user("Now add a test for whitespace-only input"),
            _assistant("Added test_whitespace_only."),
        ],
        turn_context={
            "cwd": "/home/dev/parser",
            "approval_policy": "never",
            "sandbox_policy": {"mode": "read-only"},
            "model": "gpt-5",
            "effort": "high",
            "summary": "detailed",
        },
        events=rebuilt.events,
    )
    assert [e["type"] for e in rebuilt.events] == [
        "user_message",
        "agent_reasoning",
        "token_count",
        "patch_apply_end",
        "agent_message",
        "context_compacted",
        "user_message",
        "agent_message",
        "turn_aborted",
    ]


def test_rollout_reconstruct_keeps_reasoning_and_call_pairs_before_compaction() -> None:
    full = read_rollout(PARSER)
    cut = next(i for i, line in enumerate(full.lines) if line.type == "compacted")
    rebuilt = reconstruct(Rollout(path=full.path, meta=full.meta, lines=full.lines[:cut]))
    kinds = [item["type"] for item in rebuilt.history]
    assert kinds == [
        "message",
        "message",
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "message",
    ]
    reasoning = rebuilt.history[3]
    assert (
        reasoning["encrypted_content"]
        == "gAAAAABo3Rk2xW9pQ1tZ-hand-written-opaque-blob-Lk9sPq0vY2hDq=="
    )
    assert rebuilt.history[4]["call_id"] == rebuilt.history[5]["call_id"] == "call_k2VqFf1s8TzQy0"


def test_rollout_reconstruct_replacement_history_and_crash_repair() -> None:
    rebuilt = reconstruct(read_rollout(APP))
    assert rebuilt.session_id == APP_ID
    assert rebuilt.history == [
        _user("list the biggest files"),
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [],
            "encrypted_content": "gAAAAABoEncryptedReplay==",
        },
        _user("summary of the first turn"),
        _user("and sort them by size"),
        {
            "type": "function_call",
            "name": "shell",
            "arguments": '{"command":["bash","-lc","du -a | sort -rn | head"]}',
            "call_id": "call_sort",
        },
        {"type": "function_call_output", "call_id": "call_sort", "output": "aborted"},
    ]
    assert rebuilt.turn_context is not None
    assert rebuilt.turn_context["model"] == "gpt-oss:20b"


def test_rollout_compacted_history_budget_keeps_newest_user_messages() -> None:
    history = [_user("<environment_context>old</environment_context>"), _user("a" * 50)]
    history += [_assistant("ok"), _user("<environment_context>new</environment_context>")]
    history += [_user("earlier summary"), _user("b" * 30)]
    rebuilt = compacted_history(history, "SUMMARY", {"earlier summary"}, budget=40)
    assert rebuilt == [
        _user("<environment_context>new</environment_context>"),
        _user("a" * 10 + "\n[… 40 characters truncated]"),
        _user("b" * 30),
        _user("SUMMARY"),
    ]


def test_rollout_reconstruct_without_meta_uses_file_name(tmp_path: Path) -> None:
    name = f"rollout-2025-10-01T12-00-00-{PARSER_ID}.jsonl"
    line = RolloutLine("t", "response_item", _user("hi"))
    rebuilt = reconstruct(Rollout(path=tmp_path / name, meta=None, lines=[line]))
    assert rebuilt.session_id == PARSER_ID
    assert rebuilt.history == [_user("hi")]


def test_rollout_fork_before_second_user_message(codex_home: Path) -> None:
    source = _install(codex_home, PARSER, "2025/10/01")
    forked = fork_rollout(codex_home, source, 1)

    original = read_rollout(source)
    copy = read_rollout(forked)
    assert copy.meta is not None and original.meta is not None
    assert copy.meta["forked_from"] == PARSER_ID
    assert copy.meta["id"] != PARSER_ID and copy.meta["id"] in forked.name
    assert copy.meta["git"] == original.meta["git"]
    texts = [e["message"] for e in reconstruct(copy).events if e["type"] == "user_message"]
    assert texts == ["The tokenizer test fails on empty input, please fix it"]
    second = next(i for i, line in enumerate(original.lines) if "whitespace-only" in str(line))
    assert copy.lines[1:] == original.lines[1:second]
    # Unknown line types are carried over for newer readers; the torn tail is not.
    raw = forked.read_text()
    assert "telemetry_marker" in raw
    assert raw.endswith("\n") and '"role":"assi\n' not in raw


def test_rollout_fork_whole_session_and_at_first_message(codex_home: Path) -> None:
    source = _install(codex_home, APP, "2025/10/02")
    whole = read_rollout(fork_rollout(codex_home, source, None))
    assert whole.lines[1:] == read_rollout(source).lines[1:]
    empty = read_rollout(fork_rollout(codex_home, source, 0))
    assert [line.type for line in empty.lines] == ["session_meta", "response_item"]
    assert empty.lines[1].payload["content"][0]["text"].startswith("# AGENTS.md instructions")


def test_rollout_archive_and_find_session(codex_home: Path) -> None:
    source = _install(codex_home, PARSER, "2025/10/01")
    _install(codex_home, APP, "2025/10/02")
    assert find_session_path(codex_home, PARSER_ID) == source
    assert find_session_path(codex_home, "0199a213") == source
    assert find_session_path(codex_home, "0199a") is None  # ambiguous
    assert find_session_path(codex_home, "ffff") is None

    archived = archive_session(codex_home, source)
    assert archived == codex_home / "archived_sessions" / source.name
    assert not source.exists()
    assert find_session_path(codex_home, PARSER_ID) == archived
    with pytest.raises(ValueError):
        archive_session(codex_home, codex_home / "sessions" / "notes.txt")


def test_rollout_fork_of_a_0169_layout_file_drops_the_chosen_user_item(
    codex_home: Path, tmp_path: Path
) -> None:
    """0.169 records user messages as `item_completed` UserMessage events (no user_message),
    which may come before the message item; the chosen one must not survive the fork."""
    session_id = "01a20d29-9285-7690-b6f5-81b2c77445b5"
    source = tmp_path / f"rollout-2026-11-24T10-45-58-{session_id}.jsonl"

    def user_item(text: str) -> dict[str, Any]:
        item = {"type": "UserMessage", "id": text, "content": [{"type": "text", "text": text}]}
        return {"type": "item_completed", "thread_id": session_id, "turn_id": text, "item": item}

    lines = [("session_meta", {"id": session_id, "cwd": "/p", "timestamp": "t"})]
    for text in ("one", "two"):
        lines += [("event_msg", user_item(text)), ("response_item", _user(text))]
    source.write_text(
        "".join(
            json.dumps({"timestamp": "t", "ordinal": n, "type": kind, "payload": payload}) + "\n"
            for n, (kind, payload) in enumerate(lines)
        )
    )
    forked = read_rollout(fork_rollout(codex_home, source, 1))
    texts = [e["message"] for e in reconstruct(forked).events if e["type"] == "user_message"]
    assert texts == ["one"]
