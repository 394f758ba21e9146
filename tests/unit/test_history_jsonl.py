"""history.jsonl: format, privacy, locking, trimming and lookup."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from codex_core.history import append_history, history_metadata, lookup_history

SID = "0199a213-81c0-7800-8aa1-bbab2a035a53"


def _entries(codex_home: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (codex_home / "history.jsonl").read_text().splitlines()]


def test_history_append_format_and_mode(codex_home: Path) -> None:
    append_history(codex_home, SID, "fix the bug", now=1_760_000_000.7)
    append_history(codex_home, SID, "and añadir tests\nplease")
    path = codex_home / "history.jsonl"
    assert path.stat().st_mode & 0o777 == 0o600
    entries = _entries(codex_home)
    assert entries[0] == {"session_id": SID, "ts": 1_760_000_000, "text": "fix the bug"}
    assert entries[1]["text"] == "and añadir tests\nplease"
    assert isinstance(entries[1]["ts"], int)


def test_history_tightens_permissions_of_an_existing_file(codex_home: Path) -> None:
    path = codex_home / "history.jsonl"
    path.write_text("")
    path.chmod(0o644)
    append_history(codex_home, SID, "x")
    assert path.stat().st_mode & 0o777 == 0o600


def test_history_persistence_none_writes_nothing(codex_home: Path) -> None:
    append_history(codex_home, SID, "secret", persistence="none")
    assert not (codex_home / "history.jsonl").exists()
    assert history_metadata(codex_home) == (0, 0)


def test_history_max_bytes_drops_oldest(codex_home: Path) -> None:
    for n in range(10):
        append_history(codex_home, SID, f"message {n}", now=1_760_000_000)
    line_size = (codex_home / "history.jsonl").stat().st_size // 10
    log_id, _ = history_metadata(codex_home)
    append_history(codex_home, SID, "message 10", max_bytes=line_size * 4 + 1, now=1_760_000_000)
    assert [e["text"] for e in _entries(codex_home)] == [f"message {n}" for n in range(7, 11)]
    assert history_metadata(codex_home) == (log_id, 4)  # same file, rewritten in place


def test_history_max_bytes_keeps_newest_even_if_too_big(codex_home: Path) -> None:
    append_history(codex_home, SID, "old")
    append_history(codex_home, SID, "x" * 500, max_bytes=10)
    assert [e["text"] for e in _entries(codex_home)] == ["x" * 500]


def test_history_metadata_and_lookup(codex_home: Path) -> None:
    for text in ("one", "two", "three"):
        append_history(codex_home, SID, text)
    log_id, count = history_metadata(codex_home)
    assert log_id == (codex_home / "history.jsonl").stat().st_ino
    assert count == 3
    assert lookup_history(codex_home, log_id, 1) == "two"
    assert lookup_history(codex_home, log_id, 3) is None
    assert lookup_history(codex_home, log_id + 1, 1) is None


_HOLDER = textwrap.dedent(
    """
    import fcntl, json, os, sys
    fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    print("locked", flush=True)
    sys.stdin.readline()
    entry = {"session_id": "holder", "ts": 0, "text": "written while locked"}
    os.write(fd, (json.dumps(entry) + "\\n").encode())
    fcntl.flock(fd, fcntl.LOCK_UN)
    """
)


def test_history_append_waits_for_the_lock(codex_home: Path) -> None:
    """Ordering, not timing: the append lands after the line the lock holder wrote."""
    path = codex_home / "history.jsonl"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    appender = threading.Thread(target=append_history, args=(codex_home, SID, "after the lock"))
    appender.start()
    appender.join(timeout=0.1)
    assert appender.is_alive(), "append_history did not wait for the lock"
    holder.stdin.write("release\n")
    holder.stdin.close()
    appender.join(timeout=30)
    holder.wait(timeout=30)
    holder.stdout.close()
    assert not appender.is_alive()
    assert [e["text"] for e in _entries(codex_home)] == ["written while locked", "after the lock"]


_APPENDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from codex_core.history import append_history
    limit = int(sys.argv[3]) or None
    for n in range(40):
        append_history(Path(sys.argv[1]), sys.argv[2], f"{sys.argv[2]} {n} " + "z" * 3000,
                       max_bytes=limit)
    """
)


def _run_writers(codex_home: Path, max_bytes: int) -> dict[str, list[int]]:
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", _APPENDER, str(codex_home), f"w{n}", str(max_bytes)]
        )
        for n in range(4)
    ]
    assert [w.wait() for w in writers] == [0, 0, 0, 0]
    entries = _entries(codex_home)  # every line parses: no interleaving, no torn rewrite
    return {
        f"w{n}": [int(str(e["text"]).split()[1]) for e in entries if e["session_id"] == f"w{n}"]
        for n in range(4)
    }


def test_history_concurrent_writers_keep_every_line_whole(codex_home: Path) -> None:
    numbers = _run_writers(codex_home, 0)
    assert numbers == {f"w{n}": list(range(40)) for n in range(4)}


def test_history_concurrent_writers_with_trimming(codex_home: Path) -> None:
    numbers = _run_writers(codex_home, 100_000)
    assert os.stat(codex_home / "history.jsonl").st_size <= 100_000
    kept = sum(len(run) for run in numbers.values())
    assert 20 <= kept <= 33
    for run in numbers.values():  # what survives of each writer is its newest lines
        assert run == list(range(40 - len(run), 40))
