"""Session lookup in the frontend kit: --last with and without the cwd filter, id, name, path."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from codex_core.frontend import (
    NotASessionError,
    SessionNotFoundError,
    find_session,
    last_session,
    thread_name_index,
)

IDS = [f"00000000-0000-4000-8000-00000000000{n}" for n in (1, 2, 3)]


def _write(home: Path, session_id: str, cwd: str, age: int, body: bytes | None = None) -> Path:
    folder = home / "sessions" / "2025" / "10" / "01"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-2025-10-01T10-00-00-{session_id}.jsonl"
    if body is None:
        lines = [
            {
                "timestamp": "2025-10-01T10:00:00.000Z",
                "type": "session_meta",
                "payload": {"id": session_id, "timestamp": "2025-10-01T10:00:00Z", "cwd": cwd},
            },
            {
                "timestamp": "2025-10-01T10:00:01.000Z",
                "type": "event_msg",
                "payload": {"type": "user_message", "message": f"task in {cwd}"},
            },
        ]
        body = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    path.write_bytes(body)
    stamp = 1_760_000_000 - age
    os.utime(path, (stamp, stamp))
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    _write(home, IDS[0], "/work/a", age=30)
    _write(home, IDS[1], "/work/b", age=20)
    _write(home, IDS[2], "/work/a", age=10)
    return home


def test_frontend_sessions_last_filters_by_cwd(home: Path) -> None:
    assert last_session(home, cwd=Path("/work/b")).path.name.endswith(f"{IDS[1]}.jsonl")
    assert last_session(home, cwd=Path("/work/a")).path.name.endswith(f"{IDS[2]}.jsonl")


def test_frontend_sessions_last_all_ignores_cwd(home: Path) -> None:
    assert last_session(home, cwd=None).path.name.endswith(f"{IDS[2]}.jsonl")


def test_frontend_sessions_last_elsewhere_is_not_found_with_the_fix(home: Path) -> None:
    with pytest.raises(SessionNotFoundError, match="pass --all"):
        last_session(home, cwd=Path("/work/c"))


def test_frontend_sessions_last_names_skipped_files(home: Path) -> None:
    _write(home, "00000000-0000-4000-8000-00000000bad0", "/work/a", age=0, body=b"garbage\n")
    found = last_session(home, cwd=Path("/work/a"))
    assert found.path.name.endswith(f"{IDS[2]}.jsonl")
    assert len(found.skipped_warnings) == 1 and "bad0" in found.skipped_warnings[0]


def test_frontend_sessions_find_by_id_and_prefix(home: Path) -> None:
    assert find_session(home, IDS[1]).path.name.endswith(f"{IDS[1]}.jsonl")
    assert find_session(home, IDS[0][:-1] + "1").path.name.endswith(f"{IDS[0]}.jsonl")
    with pytest.raises(SessionNotFoundError, match="codex resume"):
        find_session(home, "00000000")  # ambiguous prefix


def test_frontend_sessions_find_by_thread_name(home: Path) -> None:
    index = home / "session_index.jsonl"
    index.write_text(
        json.dumps({"id": IDS[0], "thread_name": "refactor", "updated_at": "x"})
        + "\nnot json\n"
        + json.dumps({"id": IDS[1], "thread_name": "refactor", "updated_at": "y"})
        + "\n"
    )
    assert thread_name_index(home) == {"refactor": IDS[1]}
    assert find_session(home, "refactor").path.name.endswith(f"{IDS[1]}.jsonl")


def test_frontend_sessions_find_by_path(home: Path, tmp_path: Path) -> None:
    path = _write(home, IDS[0], "/work/a", age=30)
    assert find_session(home, str(path)).path == path.resolve()
    with pytest.raises(SessionNotFoundError):
        find_session(home, str(tmp_path / "missing.jsonl"))
    bad = _write(home, "00000000-0000-4000-8000-00000000bad0", "/w", age=0, body=b"[1]\n")
    with pytest.raises(NotASessionError):
        find_session(home, str(bad))
