"""`codex sessions list`: table and JSON output, directory filtering."""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from codex_tui.cli.sessions import main, relative_age


def _line(line_type: str, payload: dict[str, Any]) -> str:
    return json.dumps(
        {"timestamp": "2025-10-01T12:00:00.000Z", "type": line_type, "payload": payload}
    )


def _session(home: Path, n: int, cwd: Path, text: str, age: int) -> None:
    session_id = f"00000000-0000-4000-8000-{n:012d}"
    folder = home / "sessions" / "2025" / "10" / "01"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-2025-10-01T10-00-0{n}-{session_id}.jsonl"
    meta: dict[str, Any] = {
        "id": session_id,
        "timestamp": "2025-10-01T10:00:00.000Z",
        "cwd": str(cwd),
    }
    meta |= {"model_provider": "openai", "git": {"branch": "main"}}
    path.write_text(
        _line("session_meta", meta)
        + "\n"
        + _line("event_msg", {"type": "user_message", "message": text})
        + "\n"
    )
    stamp = time.time() - age
    os.utime(path, (stamp, stamp))


def _run(argv: list[str]) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = main(argv, out=out)
    return code, out.getvalue().splitlines()


def test_rollout_sessions_cmd_table_defaults_to_current_directory(
    codex_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    _session(codex_home, 1, here, "fix the\nparser", age=7200)
    _session(codex_home, 2, there, "elsewhere", age=30)
    monkeypatch.chdir(here)
    code, lines = _run(["list"])
    assert code == 0
    assert lines[0].split() == ["Updated", "Branch", "CWD", "Conversation"]
    assert len(lines) == 2
    assert lines[1].startswith("2 hours ago")
    assert lines[1].endswith("fix the parser")
    code, lines = _run(["list", "--all"])
    assert [line.split()[-1] for line in lines[1:]] == ["elsewhere", "parser"]


def test_rollout_sessions_cmd_json_lines(codex_home: Path, tmp_path: Path) -> None:
    _session(codex_home, 1, tmp_path, "hello", age=60)
    code, lines = _run(["list", "--json", "--cwd", str(tmp_path)])
    assert code == 0
    record = json.loads(lines[0])
    assert record["id"] == "00000000-0000-4000-8000-000000000001"
    assert (record["cwd"], record["git_branch"], record["preview"]) == (
        str(tmp_path),
        "main",
        "hello",
    )
    assert record["updated_at"].endswith("Z")


def test_rollout_sessions_cmd_empty_says_how_to_see_more(codex_home: Path) -> None:
    code, lines = _run(["list"])
    assert code == 0
    assert lines == ["No recorded sessions in this directory (use --all to see every directory)."]


def test_rollout_sessions_cmd_bad_usage_returns_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["frobnicate"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_rollout_sessions_relative_age() -> None:
    assert [relative_age(0, s) for s in (5, 90, 7300, 200_000)] == [
        "just now",
        "1 minute ago",
        "2 hours ago",
        "2 days ago",
    ]


def test_rollout_sessions_cmd_archive_moves_the_file_out_of_the_listing(
    codex_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _session(codex_home, 1, tmp_path, "keep me", age=60)
    code, lines = _run(["archive", "00000000-0000-4000-8000-000000000001"])
    assert code == 0 and lines[0].startswith("Archived to ")
    assert list((codex_home / "archived_sessions").glob("rollout-*.jsonl"))
    assert _run(["list", "--all", "--json"])[1] == []
    assert main(["archive", "nope"]) == 1
    assert "no session matches 'nope'" in capsys.readouterr().err


def test_rollout_sessions_cmd_fork_copies_up_to_a_user_message(
    codex_home: Path, tmp_path: Path
) -> None:
    _session(codex_home, 1, tmp_path, "first question", age=60)
    code, lines = _run(["fork", "00000000-0000-4000-8000-000000000001"])
    assert code == 0 and lines[0].startswith("Forked into ")
    forked = Path(lines[0].removeprefix("Forked into "))
    first = json.loads(forked.read_text().splitlines()[0])
    assert first["payload"]["forked_from"] == "00000000-0000-4000-8000-000000000001"
    assert "first question" in forked.read_text()
    code, lines = _run(["fork", "00000000-0000-4000-8000-000000000001", "--before", "1"])
    assert code == 0
    assert "first question" not in Path(lines[0].removeprefix("Forked into ")).read_text()
