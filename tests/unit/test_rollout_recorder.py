"""RolloutRecorder: file layout, round trip, failure handling and crash safety."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from codex_core.rollout import RolloutRecorder, is_persisted_event, read_rollout
from codex_core.rollout.git_info import collect_git_info

SESSION_ID = "0199a213-81c0-7800-8aa1-bbab2a035a53"


def _create(codex_home: Path, cwd: Path, warnings: list[str] | None = None) -> RolloutRecorder:
    return RolloutRecorder.create(
        codex_home,
        SESSION_ID,
        cwd,
        originator="codex_cli_py",
        cli_version="0.1.0",
        source="cli",
        model_provider="openai",
        on_warning=None if warnings is None else warnings.append,
        layout="legacy",  # these tests pin the legacy layout; tests/compat covers 0.169's
    )


def _user_item(text: str) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def _raw_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


async def test_rollout_recorder_round_trip(codex_home: Path, tmp_path: Path) -> None:
    recorder = _create(codex_home, tmp_path)
    item = _user_item("hello")
    recorder.record_response_items([item])
    recorder.record_event({"type": "user_message", "message": "hello", "images": []})
    recorder.record_items([("turn_context", {"cwd": str(tmp_path), "model": "gpt-5"})])
    recorder.record_items([("compacted", {"message": "summary"})])
    await recorder.flush(fsync=True)
    await recorder.shutdown()

    rollout = read_rollout(recorder.path)
    assert rollout.meta is not None
    assert rollout.meta["id"] == SESSION_ID
    assert rollout.meta["cwd"] == str(tmp_path)
    assert rollout.meta["source"] == "cli"
    assert rollout.meta["model_provider"] == "openai"
    assert [(line.type, line.payload) for line in rollout.lines[1:]] == [
        ("response_item", item),
        ("event_msg", {"type": "user_message", "message": "hello", "images": []}),
        ("turn_context", {"cwd": str(tmp_path), "model": "gpt-5"}),
        ("compacted", {"message": "summary"}),
    ]
    stamp = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
    assert all(stamp.match(line.timestamp) for line in rollout.lines)


def test_rollout_recorder_file_name_and_place(codex_home: Path, tmp_path: Path) -> None:
    recorder = RolloutRecorder.create(
        codex_home,
        SESSION_ID,
        tmp_path,
        originator="o",
        cli_version="1",
        source="exec",
        model_provider="oss",
        now=1_759_320_000.0,
    )
    recorder.shutdown_sync()
    import time

    local = time.localtime(1_759_320_000.0)
    day = time.strftime("%Y/%m/%d", local)
    name = f"rollout-{time.strftime('%Y-%m-%dT%H-%M-%S', local)}-{SESSION_ID}.jsonl"
    assert recorder.path == codex_home / "sessions" / day / name
    assert recorder.path.stat().st_mode & 0o777 == 0o600
    first = _raw_lines(recorder.path)[0]
    assert set(first) == {"timestamp", "ordinal", "type", "payload"}  # 0.169 numbers lines
    assert (first["type"], first["ordinal"]) == ("session_meta", 0)


def test_rollout_recorder_drops_deltas_and_transient_events(
    codex_home: Path, tmp_path: Path
) -> None:
    recorder = _create(codex_home, tmp_path)
    for event in (
        {"type": "agent_message_delta", "delta": "he"},
        {"type": "exec_command_output_delta", "call_id": "c", "chunk": "x"},
        {"type": "task_started"},
        {"type": "exec_approval_request", "call_id": "c", "command": ["ls"], "cwd": "/"},
        {"type": "agent_message", "message": "hello"},
        {"type": "exec_command_end", "call_id": "c", "exit_code": 0},
    ):
        recorder.record_event(event)
    recorder.shutdown_sync()
    kinds = [line.payload["type"] for line in read_rollout(recorder.path).lines[1:]]
    assert kinds == ["agent_message", "exec_command_end"]


def test_rollout_is_persisted_event_policy() -> None:
    assert not any(
        is_persisted_event(t)
        for t in ("agent_message_delta", "agent_reasoning_delta", "exec_command_output_delta")
    )
    assert all(
        is_persisted_event(t)
        for t in ("user_message", "agent_message", "token_count", "turn_aborted", "agent_reasoning")
    )


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def test_rollout_recorder_session_meta_has_git_info(codex_home: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "feature/rollouts")
    _git(repo, "commit", "-q", "--allow-empty", "-m", "first")
    _git(repo, "remote", "add", "origin", "https://example.com/team/repo.git")
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()

    recorder = _create(codex_home, repo)
    recorder.shutdown_sync()

    meta = read_rollout(recorder.path).meta
    assert meta is not None
    assert meta["git"] == {
        "commit_hash": commit,
        "branch": "feature/rollouts",
        "repository_url": "https://example.com/team/repo.git",
    }


def test_rollout_git_info_outside_a_repository_is_none(tmp_path: Path) -> None:
    assert collect_git_info(tmp_path) is None


async def test_rollout_recorder_full_disk_warns_once(tmp_path: Path) -> None:
    warnings: list[str] = []
    recorder = RolloutRecorder.resume(Path("/dev/full"), on_warning=warnings.append)
    for n in range(5):
        recorder.record_response_items([_user_item(f"message {n}")])
        await recorder.flush(fsync=True)
    recorder.record_event({"type": "agent_message", "message": "still alive"})
    await recorder.shutdown()
    assert len(warnings) == 1
    assert "disk is full" in warnings[0]
    assert recorder.warnings == warnings


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
        probe = folder / "probe"
        with pytest.raises(OSError):
            probe.mkdir()
        yield
    finally:
        subprocess.run(undo, check=True)


async def test_rollout_recorder_read_only_codex_home_warns_once(tmp_path: Path) -> None:
    home = tmp_path / "ro_home"
    home.mkdir()
    warnings: list[str] = []
    with _read_only(home):
        recorder = _create(home, tmp_path, warnings)
        recorder.record_response_items([_user_item("hello")])
        recorder.record_event({"type": "agent_message", "message": "hi"})
        await recorder.flush(fsync=True)
        await recorder.shutdown()
    assert len(warnings) == 1
    assert "not writable" in warnings[0]
    assert "CODEX_HOME" in warnings[0]
    assert not (home / "sessions").exists()


async def test_rollout_recorder_resume_appends(codex_home: Path, tmp_path: Path) -> None:
    first = _create(codex_home, tmp_path)
    first.record_response_items([_user_item("one")])
    await first.shutdown()

    resumed = RolloutRecorder.resume(first.path)
    resumed.record_response_items([_user_item("two")])
    await resumed.shutdown()

    lines = read_rollout(first.path).lines
    assert [line.type for line in lines] == ["session_meta", "response_item", "response_item"]
    assert [line.payload.get("content") for line in lines[1:]] == [
        _user_item("one")["content"],
        _user_item("two")["content"],
    ]


async def test_rollout_recorder_records_after_shutdown_are_dropped(
    codex_home: Path, tmp_path: Path
) -> None:
    recorder = _create(codex_home, tmp_path)
    await recorder.shutdown()
    recorder.record_response_items([_user_item("late")])
    await recorder.flush(fsync=True)
    assert len(read_rollout(recorder.path).lines) == 1


_WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from codex_core.rollout import RolloutRecorder

    recorder = RolloutRecorder.create(
        Path(sys.argv[1]), sys.argv[2], Path.cwd(),
        originator="t", cli_version="0", source="exec", model_provider="openai",
        layout="legacy",
    )
    print(recorder.path, flush=True)
    n = 0
    while True:
        recorder.record_event({"type": "agent_message", "message": f"line {n} " + "x" * 300})
        if n % 10 == 9:
            recorder.flush_sync(fsync=False)
            print(n, flush=True)
        n += 1
    """
)


def test_rollout_recorder_survives_kill_9(codex_home: Path) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(codex_home), SESSION_ID],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    path = Path(child.stdout.readline().strip())
    acknowledged = -1
    while acknowledged < 300:
        acknowledged = int(child.stdout.readline())
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdout.close()

    messages = [line.payload["message"] for line in read_rollout(path).lines[1:]]
    assert len(messages) > acknowledged
    assert [m.split()[1] for m in messages] == [str(n) for n in range(len(messages))]

    # A torn line, as a crash in the middle of a write would leave, is skipped ...
    with open(path, "ab") as handle:
        handle.write(b'{"timestamp":"2025-10-01T12:00:00.000Z","type":"event_msg","payl')
    torn = read_rollout(path)
    assert len(torn.lines) == len(messages) + 1
    assert torn.skipped == 1

    # ... and resuming terminates it, so lines appended afterwards are readable.
    resumed = RolloutRecorder.resume(path)
    resumed.record_event({"type": "agent_message", "message": "after the crash"})
    resumed.shutdown_sync()
    after = read_rollout(path)
    assert after.lines[-1].payload["message"] == "after the crash"
    assert len(after.lines) == len(messages) + 2


def test_rollout_recorder_unencodable_payloads_never_raise(
    codex_home: Path, tmp_path: Path
) -> None:
    recorder = _create(codex_home, tmp_path)
    recorder.record_event({"type": "agent_message", "message": "bad \udcff byte"})
    recorder.record_items([("turn_context", {"cwd": object()})])
    recorder.record_event({"type": "agent_message", "message": "after"})
    recorder.shutdown_sync()
    messages = [line.payload["message"] for line in read_rollout(recorder.path).lines[1:]]
    assert messages == ["bad \udcff byte", "after"]
