"""list_sessions: order, paging, filters, previews and the SQLite head cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from codex_core.rollout import InvalidCursorError, SessionSummary, list_sessions
from codex_core.rollout.catalog import CATALOG_NAME
from codex_core.rollout.head import Head, read_head

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rollouts"
BASE_NS = 1_760_000_000 * 10**9


def _line(line_type: str, payload: dict[str, Any]) -> str:
    record = {"timestamp": "2025-10-01T12:00:00.000Z", "type": line_type, "payload": payload}
    return json.dumps(record) + "\n"


def _user(text: str) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def _session(
    home: Path,
    n: int,
    *,
    age: int,
    text: str | None = "hello",
    cwd: str = "/work/a",
    provider: str | None = "openai",
    day: str = "2025/10/01",
) -> Path:
    """A rollout whose mtime is `age` seconds before BASE."""
    session_id = f"00000000-0000-4000-8000-{n:012d}"
    folder = home / "sessions" / day
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-{day.replace('/', '-')}T10-00-{n % 60:02d}-{session_id}.jsonl"
    meta: dict[str, Any] = {"id": session_id, "timestamp": "2025-10-01T10:00:00.000Z", "cwd": cwd}
    meta["git"] = {"branch": f"branch-{n}"}
    if provider is not None:
        meta["model_provider"] = provider
    body = _line("session_meta", meta)
    body += _line("response_item", _user("<user_instructions>\nbe nice\n</user_instructions>"))
    body += _line(
        "response_item", _user("<environment_context>\n<cwd>/w</cwd>\n</environment_context>")
    )
    if text is not None:
        body += _line("response_item", _user(text))
        body += _line("event_msg", {"type": "user_message", "message": text})
    path.write_text(body)
    stamp = BASE_NS - age * 10**9
    os.utime(path, ns=(stamp, stamp))
    return path


class CountingReader:
    """A head reader that counts the files it actually reads."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    def __call__(self, path: str) -> Head:
        self.paths.append(path)
        return read_head(path)


def _ids(items: list[SessionSummary]) -> list[int]:
    return [int(item.id.rsplit("-", 1)[1]) for item in items]


def test_rollout_listing_newest_update_first(codex_home: Path) -> None:
    _session(codex_home, 1, age=30, day="2025/10/03")
    _session(codex_home, 2, age=10, day="2025/09/01")  # old folder, but updated most recently
    _session(codex_home, 3, age=20, day="2025/10/02")
    page = list_sessions(codex_home)
    assert _ids(page.items) == [2, 3, 1]
    assert page.next_cursor is None
    first = page.items[0]
    assert first.updated_at == (BASE_NS - 10 * 10**9) / 1e9
    assert (first.cwd, first.git_branch, first.model_provider) == ("/work/a", "branch-2", "openai")
    assert first.created_at == "2025-10-01T10:00:00.000Z"
    assert first.preview == "hello"


def test_rollout_listing_pages_with_cursor(codex_home: Path) -> None:
    for n in range(7):
        _session(codex_home, n, age=n)
    seen: list[int] = []
    cursor = None
    sizes = []
    while True:
        page = list_sessions(codex_home, page_size=3, cursor=cursor)
        seen += _ids(page.items)
        sizes.append(len(page.items))
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == list(range(7))
    assert sizes == [3, 3, 1]
    with pytest.raises(InvalidCursorError):
        list_sessions(codex_home, cursor="not a cursor!")


def test_rollout_listing_filters_by_cwd_and_provider(codex_home: Path, tmp_path: Path) -> None:
    here = tmp_path / "project"
    here.mkdir()
    _session(codex_home, 1, age=1, cwd=str(here), provider="oss")
    _session(codex_home, 2, age=2, cwd="/elsewhere", provider="oss")
    _session(codex_home, 3, age=3, cwd=str(here), provider=None)
    assert _ids(list_sessions(codex_home, cwd=here).items) == [1, 3]
    assert _ids(list_sessions(codex_home, cwd=str(here) + "/").items) == [1, 3]
    assert _ids(list_sessions(codex_home, provider="oss").items) == [1, 2]
    assert _ids(list_sessions(codex_home, provider="openai").items) == [3]
    assert _ids(list_sessions(codex_home, cwd=here, provider="oss").items) == [1]


def test_rollout_listing_preview_skips_injected_blocks_and_empty_sessions(codex_home: Path) -> None:
    _session(codex_home, 1, age=1, text="  refactor the parser\nplease  ")
    _session(codex_home, 2, age=2, text=None)  # only instructions and environment context
    _session(codex_home, 3, age=3, text="# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>x")
    meta_only = codex_home / "sessions" / "2025" / "10" / "01"
    (
        meta_only / "rollout-2025-10-01T09-00-00-00000000-0000-4000-8000-000000000009.jsonl"
    ).write_text(_line("session_meta", {"id": "00000000-0000-4000-8000-000000000009", "cwd": "/w"}))
    page = list_sessions(codex_home)
    assert _ids(page.items) == [1]
    assert page.items[0].preview == "refactor the parser\nplease"


def test_rollout_listing_lists_the_codex_fixture(codex_home: Path) -> None:
    for fixture in FIXTURES.glob("*.jsonl"):
        day = codex_home / "sessions" / "2025" / "10" / fixture.name[16:18]
        day.mkdir(parents=True, exist_ok=True)
        shutil.copy(fixture, day)
    by_id = {item.id: item for item in list_sessions(codex_home).items}
    parser = by_id["0199a213-81c0-7800-8aa1-bbab2a035a53"]
    assert parser.preview == "The tokenizer test fails on empty input, please fix it"
    assert (parser.cwd, parser.git_branch, parser.model_provider) == (
        "/home/dev/parser",
        "fix/off-by-one",
        "openai",
    )
    app = by_id["0199a7c4-0e55-7d31-b7a2-5f0c9e1d2a88"]
    assert (app.preview, app.model_provider) == ("list the biggest files", "oss")


def test_rollout_listing_catalog_skips_unchanged_files(codex_home: Path) -> None:
    paths = [_session(codex_home, n, age=n) for n in range(5)]
    reader = CountingReader()
    first = list_sessions(codex_home, head_reader=reader)
    assert len(reader.paths) == 5
    assert (codex_home / CATALOG_NAME).exists()

    reader.paths.clear()
    assert list_sessions(codex_home, head_reader=reader) == first
    assert reader.paths == []

    with open(paths[3], "a") as handle:  # a resumed session grows
        handle.write(_line("event_msg", {"type": "agent_message", "message": "more"}))
    os.utime(paths[3], ns=(BASE_NS + 10**9, BASE_NS + 10**9))
    again = list_sessions(codex_home, head_reader=reader)
    assert reader.paths == [str(paths[3])]
    assert _ids(again.items) == [3, 0, 1, 2, 4]


def test_rollout_listing_picks_up_files_written_by_other_tools(codex_home: Path) -> None:
    _session(codex_home, 1, age=5)
    list_sessions(codex_home)
    _session(codex_home, 2, age=1)
    assert _ids(list_sessions(codex_home).items) == [2, 1]


@pytest.mark.parametrize("damage", ["delete", "corrupt", "wrong_schema"])
def test_rollout_listing_recovers_from_a_lost_catalog(codex_home: Path, damage: str) -> None:
    for n in range(4):
        _session(codex_home, n, age=n)
    expected = list_sessions(codex_home)
    catalog = codex_home / CATALOG_NAME
    if damage == "delete":
        catalog.unlink()
    elif damage == "corrupt":
        catalog.write_bytes(b"this is not a database" * 100)
    else:
        import sqlite3

        catalog.unlink()
        with sqlite3.connect(catalog) as db:
            db.execute("CREATE TABLE heads (path TEXT)")
    reader = CountingReader()
    assert list_sessions(codex_home, head_reader=reader) == expected
    assert len(reader.paths) == 4
    reader.paths.clear()
    assert list_sessions(codex_home, head_reader=reader) == expected
    assert reader.paths == []


def test_rollout_listing_archived_only_when_asked(codex_home: Path) -> None:
    _session(codex_home, 1, age=2)
    moved = _session(codex_home, 2, age=1)
    archive = codex_home / "archived_sessions"
    archive.mkdir()
    moved.rename(archive / moved.name)
    assert _ids(list_sessions(codex_home).items) == [1]
    page = list_sessions(codex_home, include_archived=True)
    assert [(i, item.archived) for i, item in zip(_ids(page.items), page.items, strict=True)] == [
        (2, True),
        (1, False),
    ]


@contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """Make `folder` unwritable, even for root (via the immutable attribute)."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        undo = ["chmod", "755", str(folder)]
    else:
        subprocess.run(["chattr", "+i", str(folder)], check=True, capture_output=True)
        undo = ["chattr", "-i", str(folder)]
    try:
        yield
    finally:
        subprocess.run(undo, check=True)


def test_rollout_listing_works_in_a_read_only_codex_home(codex_home: Path) -> None:
    _session(codex_home, 1, age=1)
    with _read_only(codex_home):
        assert _ids(list_sessions(codex_home).items) == [1]
    assert not (codex_home / CATALOG_NAME).exists()


def test_rollout_listing_empty_home(codex_home: Path) -> None:
    assert list_sessions(codex_home / "missing").items == []
