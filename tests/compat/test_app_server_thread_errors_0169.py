"""Side by side with codex-rust 0.169: `thread/resume` and `thread/fork` of a thread that has
no turn yet answer the same error (code and words, the thread id aside) from both servers; the
recorded answers are tests/fixtures/app_server_thread_errors_0169.json."""

from __future__ import annotations

from pathlib import Path

from tests.compat.conftest import MODEL, Cli
from tests.servers.rpc_client import AppServerClient
from tests.support.model_server import ModelServer


def _errors(cli: Cli, server: ModelServer, cwd: Path) -> list[object]:
    flags = [*server.cli_flags(), "-c", MODEL]
    argv = [cli.binary, *flags, "app-server", "--listen", "stdio://"]
    client = AppServerClient(cli.home, cwd, flags, None, argv=argv)
    client.initialize()
    thread_id = client.call("thread/start", {"cwd": str(cwd)})["result"]["thread"]["id"]
    answers = [
        client.call(method, {"threadId": thread_id}, timeout=60).get("error")
        for method in ("thread/resume", "thread/fork")
    ]
    client.close()
    return [
        {**error, "message": error["message"].replace(thread_id, "THREAD")}
        if isinstance(error, dict)
        else error
        for error in answers
    ]


def test_resume_and_fork_without_turns_answer_as_0169(ours: Cli, rust: Cli, project: Path) -> None:
    with ModelServer() as server:
        theirs = _errors(rust, server, project)
        mine = _errors(ours, server, project)
    expected = {"code": -32600, "message": "no rollout found for thread id THREAD"}
    assert theirs == [expected, expected]
    assert mine == theirs
