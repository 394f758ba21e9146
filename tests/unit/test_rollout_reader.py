"""read_rollout: tolerant of torn, garbage and unknown lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codex_core.rollout import read_rollout
from codex_core.rollout.reader import RolloutLine

META = {"id": "0199a213-81c0-7800-8aa1-bbab2a035a53", "timestamp": "t", "cwd": "/w"}


def _line(line_type: str, payload: dict[str, Any]) -> str:
    return json.dumps(
        {"timestamp": "2025-10-01T12:00:00.000Z", "type": line_type, "payload": payload}
    )


def test_rollout_reader_skips_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    good = _line("event_msg", {"type": "agent_message", "message": "kept"})
    path.write_text(_line("session_meta", META) + "\n" + good + "\n" + good[: len(good) // 2])
    rollout = read_rollout(path)
    assert rollout.meta == META
    assert rollout.lines == [
        RolloutLine("2025-10-01T12:00:00.000Z", "session_meta", META),
        RolloutLine(
            "2025-10-01T12:00:00.000Z", "event_msg", {"type": "agent_message", "message": "kept"}
        ),
    ]
    assert rollout.skipped == 1


def test_rollout_reader_skips_unknown_line_item_and_event_types(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    lines = [
        _line("session_meta", META),
        _line("future_line", {"x": 1}),
        _line("response_item", {"type": "future_item", "x": 1}),
        _line("response_item", {"no_type": True}),
        _line("event_msg", {"type": "future_event"}),
        _line("event_msg", {"type": "agent_message_delta", "delta": "d"}),
        '{"timestamp": "t", "type": "event_msg", "payload": "not an object"}',
        "[1, 2, 3]",
        "garbage {",
        "",
        _line(
            "response_item",
            {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c"},
        ),
        _line("turn_context", {"model": "gpt-5"}),
    ]
    path.write_text("\n".join(lines) + "\n")
    rollout = read_rollout(path)
    assert [line.type for line in rollout.lines] == [
        "session_meta",
        "response_item",
        "turn_context",
    ]
    assert rollout.skipped == 8


def test_rollout_reader_handles_invalid_utf8(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(_line("session_meta", META).encode() + b"\n\xff\xfe{\n")
    assert read_rollout(path).meta == META
