"""`codex review` / `codex exec review` end to end, against what codex-rust 0.169 did.

The 0.169 recordings are in tests/fixtures/review_0169 (its printed review, its `--json`
lines, and the parts of its review requests: the target's prompt, the header's label, the
output schema). Ours must print the same and tell the reviewer the same facts; the wording
of its instructions is its own.
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

pytestmark = pytest.mark.e2e

FIXTURES = Path(__file__).parent.parent / "fixtures" / "review_0169"
RECORDED: dict[str, Any] = json.loads((FIXTURES / "requests.json").read_text("utf-8"))


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository as the 0.169 runs had it: one commit, then uncommitted changes."""
    root = (tmp_path / "repo").resolve()
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "m.py").write_text("def add(a, b):\n    return a + b\n")
    git(root, "add", ".")
    git(root, "commit", "-qm", "init")
    (root / "m.py").write_text("def add(a, b):\n    return a - b\n")
    (root / "n.txt").write_text("new\n")
    return root


def codex(
    codex_bin: Path, server: ModelServer, args: list[str], cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    head, rest = (args[:2], args[2:]) if args[0] == "exec" else (args[:1], args[1:])
    return subprocess.run(
        [str(codex_bin), *head, *server.cli_flags(), "-c", 'model="gpt-5.5"', *rest],
        cwd=cwd,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
    )


def recorded(name: str, repo: Path) -> str:
    return (FIXTURES / name).read_text("utf-8").replace("{repo}", str(repo))


def answer(repo: Path) -> str:
    return json.dumps(json.loads(recorded("answer.json", repo)))


def reviewer_script(repo: Path) -> list[Any]:
    """The reviewer runs `git status`, then answers the recorded findings."""
    status = function_call("exec_command", {"cmd": "git status --short"}, call_id="c1")
    return [turn(status), turn(message(answer(repo)))]


def last_user_text(body: dict[str, Any]) -> str:
    user = [i for i in body["input"] if i.get("type") == "message" and i["role"] == "user"]
    return str(user[-1]["content"][0]["text"])


def test_exec_review_uncommitted_prints_the_findings_as_0169(
    codex_bin: Path, model_server: ModelServer, repo: Path
) -> None:
    model_server.add(*reviewer_script(repo))
    done = codex(codex_bin, model_server, ["exec", "review", "--uncommitted"], repo)
    assert done.returncode == 0, done.stderr
    assert done.stdout == recorded("exec_review_stdout.txt", repo)
    assert "user\ncurrent changes\n" in done.stderr
    assert "approval: never" in done.stderr and "sandbox: read-only" in done.stderr
    first = model_server.requests[0].body
    assert model_server.requests[0].header("x-openai-subagent") == "review"  # 0.169's header
    # the reviewer's own instructions carry the answer's schema; the diff is never sent
    for key in ("findings", "code_location", "line_range", "overall_correctness"):
        assert f'"{key}"' in first["instructions"]
    assert '"patch is correct" | "patch is incorrect"' in first["instructions"]
    assert "return a - b" not in json.dumps(first)
    prompt = last_user_text(first)
    assert all(word in prompt for word in ("staged", "unstaged", "untracked"))
    assert "exec_command" in [t.get("name") for t in first["tools"]]
    # the command it ran answered the reviewer, not the session's history
    assert model_server.requests[1].body["input"][-1]["type"] == "function_call_output"


def test_exec_review_json_is_one_agent_message_as_0169(
    codex_bin: Path, model_server: ModelServer, repo: Path
) -> None:
    model_server.add(*reviewer_script(repo))
    done = codex(codex_bin, model_server, ["exec", "review", "--json", "--uncommitted"], repo)
    assert done.returncode == 0, done.stderr
    ours = [json.loads(line) for line in done.stdout.splitlines()]
    theirs = [json.loads(line) for line in recorded("exec_review_json.jsonl", repo).splitlines()]
    ours[0]["thread_id"] = theirs[0]["thread_id"]
    for lines in (ours, theirs):  # the command's output is the machine's
        for line in lines:
            if line.get("item", {}).get("type") == "command_execution":
                line["item"]["aggregated_output"] = ""
    assert ours == theirs


def test_review_one_finding_prints_as_0169(
    codex_bin: Path, model_server: ModelServer, repo: Path
) -> None:
    one = json.loads(answer(repo))
    one["findings"] = one["findings"][:1]
    one["findings"][0]["title"] = "Subtraction instead of addition"
    model_server.add(turn(message(json.dumps(one))))
    done = codex(codex_bin, model_server, ["review", "--uncommitted"], repo)
    assert done.returncode == 0, done.stderr
    assert done.stdout == recorded("review_one_finding_stdout.txt", repo)


def test_review_base_branch_names_the_merge_base(
    codex_bin: Path, model_server: ModelServer, repo: Path
) -> None:
    git(repo, "stash", "-u", "-q")
    base = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "-b", "feature")
    (repo / "m.py").write_text("def add(a, b):\n    return b + a\n")
    git(repo, "commit", "-qam", "swap")
    model_server.add(turn(message("Looks fine to me.")))
    done = codex(codex_bin, model_server, ["review", "--base", "main"], repo)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Looks fine to me.\n"  # an answer that is not JSON: as it is
    assert "user\nchanges against 'main'\n" in done.stderr
    prompt = last_user_text(model_server.requests[0].body)
    theirs = RECORDED["r_base"]["last_user_message"]
    assert f"git diff {base}`" in prompt and "`git diff " in theirs  # the same command to run
    assert "'main'" in prompt and "'main'" in theirs
    # a branch that is not there: the reviewer is told to find the merge base itself
    model_server.add(turn(message("ok")))
    done = codex(codex_bin, model_server, ["review", "--base", "nosuch"], repo)
    assert done.returncode == 0, done.stderr
    assert "git merge-base" in last_user_text(model_server.requests[1].body)


def test_review_commit_and_custom_prompts(
    codex_bin: Path, model_server: ModelServer, repo: Path
) -> None:
    sha = git(repo, "rev-parse", "HEAD")
    model_server.add(*(turn(message("ok")) for _ in range(3)))
    args = ["review", "-c", 'review_model="gpt-5.4-mini"', "--commit", sha, "--title", "Add b"]
    done = codex(codex_bin, model_server, args, repo)
    assert done.returncode == 0, done.stderr
    assert model_server.requests[0].body["model"] == "gpt-5.4-mini"  # 0.169 too
    assert f"user\ncommit {sha[:7]}: Add b\n" in done.stderr
    assert f'commit {sha} ("Add b")' in last_user_text(model_server.requests[0].body)
    assert '("Add b")' in RECORDED["r_commit"]["last_user_message"]
    # custom instructions are the prompt, word for word (0.169 too), from stdin with `-`
    codex(codex_bin, model_server, ["exec", "review", "check the naming"], repo)
    assert last_user_text(model_server.requests[1].body) == "check the naming"
    assert RECORDED["r_custom"]["last_user_message"] == "check the naming"
    codex(codex_bin, model_server, ["review", "-"], repo, stdin="from stdin please\n")
    assert last_user_text(model_server.requests[2].body) == "from stdin please"


def test_review_refuses_a_missing_or_double_target(
    codex_bin: Path, model_server: ModelServer, repo: Path
) -> None:
    done = codex(codex_bin, model_server, ["review"], repo)
    assert (done.returncode, done.stderr) == (
        1,
        "Error: Specify --uncommitted, --base, --commit, or provide custom review instructions\n",
    )
    done = codex(codex_bin, model_server, ["exec", "review", "--uncommitted", "--base", "m"], repo)
    assert done.returncode == 2 and "cannot be used with" in done.stderr
    assert len(done.stderr.splitlines()) == 1
    done = codex(codex_bin, model_server, ["review", "--uncommitted"], repo.parent)
    assert done.returncode == 1 and "--skip-git-repo-check" in done.stderr
    assert model_server.requests == []


def test_reviewer_commands_cannot_write(
    codex_bin: Path, model_server: ModelServer, repo: Path
) -> None:
    """The reviewer runs read-only and never asks, whatever the user's sandbox setting."""
    touch = function_call("exec_command", {"cmd": "echo x > planted.txt"}, call_id="c1")
    model_server.add(turn(touch), turn(message("done")))
    done = codex(
        codex_bin,
        model_server,
        ["exec", "review", "-s", "danger-full-access", "--uncommitted"],
        repo,
    )
    assert done.returncode == 0, done.stderr
    assert not (repo / "planted.txt").exists()
    assert "sandbox: read-only" in done.stderr
