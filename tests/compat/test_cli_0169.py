"""`codex exec` grammar and the 0.169 subcommands, side by side with codex-rust."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from tests.compat.conftest import Cli, thread_id, user_texts
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn


@pytest.mark.parametrize("binary", ["ours", "rust"])
def test_cli_exec_options_anywhere_around_resume(
    binary: str, request: pytest.FixtureRequest, model_server: ModelServer, project: Path
) -> None:
    cli: Cli = request.getfixturevalue(binary)
    model_server.add(*[turn(message("ok")) for _ in range(4)])
    first = cli.exec(model_server, "--json", "first", cwd=project)
    session = thread_id(first.stdout)
    shapes = [
        ["resume", session, "--json", "-m", "gpt-5.5", "after the id"],
        ["resume", "--json", session, "-c", 'model_reasoning_effort="xhigh"', "c anywhere"],
        ["--json", "resume", "--last", "-c", 'model_reasoning_effort="low"', "after --last"],
    ]
    for args in shapes:
        done = cli.exec(model_server, *args, cwd=project)
        assert done.returncode == 0, (args, done.stderr)
        assert thread_id(done.stdout) == session, args
        assert user_texts(model_server.bodies[-1])[-1] == args[-1]
    assert model_server.bodies[2]["reasoning"]["effort"] == "xhigh"
    assert model_server.bodies[3]["reasoning"]["effort"] == "low"


@pytest.mark.parametrize("binary", ["ours", "rust"])
def test_cli_exec_resume_last_is_per_directory_unless_all(
    binary: str,
    request: pytest.FixtureRequest,
    model_server: ModelServer,
    project: Path,
    tmp_path: Path,
) -> None:
    cli: Cli = request.getfixturevalue(binary)
    other = tmp_path / "other"
    other.mkdir()
    model_server.add(*[turn(message("ok")) for _ in range(3)])
    in_a = thread_id(cli.exec(model_server, "--json", "in A", cwd=project).stdout)
    in_b = cli.exec(
        model_server, "--skip-git-repo-check", "--json", "resume", "--last", "in B", cwd=other
    )
    assert in_b.returncode == 0, in_b.stderr
    assert thread_id(in_b.stdout) != in_a, "A's session is not continued from B"
    assert user_texts(model_server.bodies[-1])[-1] == "in B" and "in A" not in user_texts(
        model_server.bodies[-1]
    )
    anywhere = cli.exec(
        model_server,
        "--skip-git-repo-check",
        "--json",
        "resume",
        "--last",
        "--all",
        "all",
        cwd=project,
    )
    assert thread_id(anywhere.stdout) == thread_id(in_b.stdout), "the newest anywhere"


@pytest.mark.parametrize("binary", ["ours", "rust"])
def test_cli_exec_stdin_ephemeral_and_git_check(
    binary: str,
    request: pytest.FixtureRequest,
    model_server: ModelServer,
    project: Path,
    tmp_path: Path,
) -> None:
    cli: Cli = request.getfixturevalue(binary)
    model_server.add(*[turn(message("ok")) for _ in range(3)])
    cli.exec(model_server, "--json", "summarize", cwd=project, stdin="line1\nno newline")
    assert user_texts(model_server.bodies[-1])[-1] == (
        "summarize\n\n<stdin>\nline1\nno newline\n</stdin>"
    )
    cli.exec(model_server, "--json", "-", cwd=project, stdin="whole prompt\n")
    assert user_texts(model_server.bodies[-1])[-1] == "whole prompt\n"
    sessions = cli.home / "sessions"
    before = sorted(sessions.rglob("*.jsonl"))
    done = cli.exec(model_server, "--json", "--ephemeral", "nothing kept", cwd=project)
    assert done.returncode == 0 and sorted(sessions.rglob("*.jsonl")) == before
    plain = tmp_path / "not-a-repo"
    plain.mkdir()
    sent = len(model_server.requests)
    refused = cli.exec(model_server, "hello", cwd=plain)
    assert refused.returncode == 1
    assert (
        "Not inside a trusted directory and --skip-git-repo-check was not specified."
        in refused.stderr
    )
    assert len(model_server.requests) == sent, "nothing is sent"


@pytest.mark.parametrize("binary", ["ours", "rust"])
def test_cli_login_status_logout(
    binary: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    cli: Cli = request.getfixturevalue(binary)
    no_key = {"OPENAI_API_KEY": ""}
    status = cli.run("login", "status", cwd=tmp_path, env=no_key)
    assert (status.returncode, status.stderr.strip()) == (1, "Not logged in")
    saved = cli.run("login", "--with-api-key", cwd=tmp_path, stdin="sk-test-1234567890abcdef\n")
    assert saved.returncode == 0, saved.stderr
    auth = cli.home / "auth.json"
    assert json.loads(auth.read_text()) == {
        "auth_mode": "apikey",
        "OPENAI_API_KEY": "sk-test-1234567890abcdef",
    }
    assert stat.S_IMODE(os.stat(auth).st_mode) == 0o600
    status = cli.run("login", "status", cwd=tmp_path, env=no_key)
    assert status.returncode == 0
    assert "API key configured - sk-test-***bcdef" in status.stderr
    flag = cli.run("login", "--api-key", "sk-x", cwd=tmp_path)
    assert flag.returncode == 1 and "--with-api-key" in flag.stderr
    out = cli.run("logout", cwd=tmp_path)
    assert (out.returncode, out.stderr.strip()) == (0, "Successfully logged out")
    assert not auth.exists()
    again = cli.run("logout", cwd=tmp_path)
    assert (again.returncode, again.stderr.strip()) == (0, "Not logged in")


def test_cli_subcommands_are_never_prompts(
    ours: Cli, model_server: ModelServer, tmp_path: Path
) -> None:
    for shell, marker in (
        ("bash", "complete -F"),
        ("zsh", "#compdef codex"),
        ("fish", "complete -c"),
    ):
        done = ours.run("completion", shell, cwd=tmp_path)
        assert done.returncode == 0 and marker in done.stdout
    for name in ("apply", "cloud", "update", "agents"):  # review and fork exist now
        done = ours.run(name, cwd=tmp_path)
        assert done.returncode == 2 and f"codex {name}:" in done.stderr
    assert model_server.requests == []
