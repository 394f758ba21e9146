"""`thread/resume` and `thread/fork` of a thread without turns are 0.169's `no rollout found`
error (its rollout is written at the first turn or name), and the requests naming an unknown
thread answer the same words, without our old "Invalid request:" prefix — each compared with
what codex-rust 0.169 answered (tests/fixtures/app_server_thread_errors_0169.json; live side by
side in tests/compat/test_app_server_thread_errors_0169.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.servers.conftest import AppServerFactory

FIXTURE = Path(__file__).parent.parent / "fixtures" / "app_server_thread_errors_0169.json"
UNKNOWN = "01a21d95-da39-7551-9b0d-c1dc2a30345b"


def _expected(case: str, thread_id: str) -> dict[str, object]:
    error = dict(json.loads(FIXTURE.read_text())["errors"][case])
    error["message"] = (
        str(error["message"]).replace("THREAD", thread_id).replace("UNKNOWN", UNKNOWN)
    )
    return error


def test_resume_and_fork_of_a_thread_without_turns_fail_as_0169(
    app_server: AppServerFactory, workspace: Path
) -> None:
    client = app_server()
    client.initialize()
    thread_id = client.call("thread/start", {"cwd": str(workspace)})["result"]["thread"]["id"]
    for method in ("thread/resume", "thread/fork"):
        answer = client.call(method, {"threadId": thread_id})
        assert answer.get("error") == _expected(f"{method} without turns", thread_id), answer
    for method, extra in (
        ("thread/resume", {}),
        ("thread/archive", {}),
        ("thread/name/set", {"name": "x"}),
        ("thread/read", {}),
    ):
        answer = client.call(method, {"threadId": UNKNOWN, **extra})
        assert answer.get("error") == _expected(f"{method} unknown", UNKNOWN), answer
    # A name writes the rollout: then the thread resumes and forks (as 0.169's does).
    assert client.call("thread/name/set", {"threadId": thread_id, "name": "x"})["result"] == {}
    resumed = client.call("thread/resume", {"threadId": thread_id})
    assert resumed["result"]["thread"]["id"] == thread_id
    forked = client.call("thread/fork", {"threadId": thread_id})
    assert forked["result"]["thread"]["forkedFromId"] == thread_id
    assert client.close() == 0
