"""`--approve-for-me` / `approvals_reviewer = "auto_review"` end to end: the scripted model
server plays both the agent and the reviewer, through the real console script.

What codex-rust 0.169 did for the same runs is in tests/fixtures/auto_review_0169 (its
`--json` lines for an allowed and a denied escalation, and its reviewer request). Every
tool call still gets exactly one output (the `model_server` fixture checks the pairing of
every request at teardown).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn
from tests.support.steps import hang, http_error

pytestmark = pytest.mark.e2e

FIXTURES = Path(__file__).parent.parent / "fixtures" / "auto_review_0169"
RECORDED: dict[str, Any] = json.loads((FIXTURES / "requests.json").read_text("utf-8"))
ALLOW = (FIXTURES / "reviewer_answer_allow.json").read_text("utf-8")
DENY = (FIXTURES / "reviewer_answer_deny.json").read_text("utf-8")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = (tmp_path / "repo").resolve()
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True, timeout=30)
    return root


def escalated_touch(target: Path, call_id: str = "c1") -> Any:
    arguments = {
        "cmd": f"touch {target}",
        "sandbox_permissions": "require_escalated",
        "justification": "Need to write outside the workspace",
    }
    return turn(function_call("exec_command", arguments, call_id=call_id))


def codex_exec(
    codex_bin: Path, server: ModelServer, args: list[str], cwd: Path, **provider: Any
) -> subprocess.CompletedProcess[str]:
    flags = server.cli_flags(request_max_retries=0, stream_max_retries=0, **provider)
    return subprocess.run(
        [str(codex_bin), "exec", *flags, "-c", 'model="gpt-5.5"', *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=90,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
    )


def jsonl(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def recorded_lines(name: str, target: Path) -> list[dict[str, Any]]:
    text = (FIXTURES / name).read_text("utf-8").replace("{target}", str(target))
    return jsonl(text)


def comparable(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Without the thread id and the usage (0.169 adds cache-write and reasoning counts)."""
    return [{k: v for k, v in line.items() if k not in ("thread_id", "usage")} for line in lines]


def outputs_of(server: ModelServer, call_id: str) -> list[str]:
    """The outputs the agent's last request carries for `call_id` (exactly one expected)."""
    body = server.requests[-1].body
    return [
        str(item["output"])
        for item in body["input"]
        if item.get("type") == "function_call_output" and item["call_id"] == call_id
    ]


def reviewer_bodies(server: ModelServer) -> list[dict[str, Any]]:
    return [r.body for r in server.requests if not r.body.get("tools")]


def test_approve_for_me_allowed_escalation_runs_as_0169(
    codex_bin: Path, model_server: ModelServer, repo: Path
) -> None:
    target = repo.parent / "outside.txt"
    model_server.add(escalated_touch(target), turn(message(ALLOW)), turn(message("done")))
    done = codex_exec(
        codex_bin, model_server, ["--json", "--approve-for-me", "make the file"], repo
    )
    assert done.returncode == 0, done.stderr
    assert target.exists()
    ours = comparable(jsonl(done.stdout))
    assert ours == comparable(recorded_lines("exec_json_allow.jsonl", target))
    [reviewer] = reviewer_bodies(model_server)
    assert model_server.requests[1].header("x-openai-subagent") == "guardian"  # as 0.169
    # the reviewer's answer is asked in 0.169's JSON shape, with no tools, at low effort
    schema = reviewer["text"]["format"]["schema"]
    theirs = RECORDED["reviewer_request"]["text"]["format"]["schema"]
    assert schema["properties"] == theirs["properties"]
    assert reviewer["reasoning"]["effort"] == RECORDED["reviewer_request"]["reasoning"]["effort"]
    context = reviewer["input"][-1]["content"][0]["text"]
    assert "user: make the file" in context
    assert f"touch {target}" in context and '"require_escalated"' in context
    assert outputs_of(model_server, "c1") == [outputs_of(model_server, "c1")[0]]


def test_approve_for_me_denied_escalation_tells_the_model_why(
    codex_bin: Path, model_server: ModelServer, repo: Path
) -> None:
    target = repo.parent / "outside.txt"
    model_server.add(escalated_touch(target), turn(message(DENY)), turn(message("done")))
    done = codex_exec(
        codex_bin, model_server, ["--json", "--approve-for-me", "make the file"], repo
    )
    assert done.returncode == 0, done.stderr
    assert not target.exists()
    ours = comparable(jsonl(done.stdout))
    assert ours == comparable(recorded_lines("exec_json_deny.jsonl", target))
    [output] = outputs_of(model_server, "c1")
    rationale = json.loads(DENY)["rationale"]
    assert f"Reason: {rationale}" in output  # 0.169 sends the reason too
    assert f"Reason: {rationale}" in RECORDED["model_output_on_deny"]
    # the human output says who decided, and why
    model_server.add(escalated_touch(target), turn(message(DENY)), turn(message("done")))
    done = codex_exec(codex_bin, model_server, ["--approve-for-me", "make the file"], repo)
    assert f"auto-review denied touch {target}\n{rationale}\n" in done.stderr
    assert not target.exists()


@pytest.mark.parametrize(
    "failure",
    ["garbage", "server_error", "idle_timeout"],
)
def test_approve_for_me_failed_review_denies(
    codex_bin: Path, model_server: ModelServer, repo: Path, failure: str
) -> None:
    target = repo.parent / "outside.txt"
    model_server.add(escalated_touch(target))
    provider: dict[str, Any] = {}
    if failure == "garbage":  # asked three times, as 0.169 does, then denied
        model_server.add(*(turn(message("not json")) for _ in range(3)))
    elif failure == "server_error":
        model_server.add(http_error(500, "upstream broke"))
    else:
        model_server.add(hang(15))
        provider["stream_idle_timeout_ms"] = 3000  # every request: leave room under load
    model_server.add(turn(message("done")))
    done = codex_exec(
        codex_bin, model_server, ["--approve-for-me", "make the file"], repo, **provider
    )
    assert done.returncode == 0, done.stderr
    assert not target.exists()
    [output] = outputs_of(model_server, "c1")
    assert output.startswith("Automatic approval review could not decide")
    assert "auto-review denied" in done.stderr
    expected_reviews = 3 if failure == "garbage" else 1
    assert len(reviewer_bodies(model_server)) == expected_reviews
    if failure == "garbage":
        assert RECORDED["reviewer_requests_on_invalid_json"] == 3


def test_reviewer_allow_is_for_one_run_and_never_under_never(
    codex_bin: Path, model_server: ModelServer, repo: Path
) -> None:
    """An allow is not remembered: the same command asks again (and this time is denied).
    Under approval `never` nothing reaches the reviewer: the policy refuses first."""
    target = repo.parent / "outside.txt"
    model_server.add(
        escalated_touch(target, "c1"),
        turn(message(ALLOW)),
        escalated_touch(target, "c2"),
        turn(message(DENY)),
        turn(message("done")),
    )
    done = codex_exec(codex_bin, model_server, ["--approve-for-me", "twice"], repo)
    assert done.returncode == 0, done.stderr
    assert len(reviewer_bodies(model_server)) == 2
    assert outputs_of(model_server, "c2")[0].startswith("Automatic approval review denied")
    target.unlink()
    before = len(model_server.requests)
    model_server.add(escalated_touch(target, "c3"), turn(message("done")))
    args = ["-c", 'approvals_reviewer="auto_review"', "-s", "workspace-write", "go"]
    done = codex_exec(codex_bin, model_server, args, repo)
    assert done.returncode == 0, done.stderr
    assert len(model_server.requests) - before == 2  # no reviewer request in between
    assert not target.exists()


def test_approve_for_me_refuses_flags_that_set_a_policy(
    codex_bin: Path, model_server: ModelServer, repo: Path
) -> None:
    done = codex_exec(codex_bin, model_server, ["--approve-for-me", "-s", "read-only", "x"], repo)
    assert done.returncode == 2
    assert done.stderr == "codex: --approve-for-me cannot be used with --sandbox\n"
    assert model_server.requests == []
