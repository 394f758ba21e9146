"""The real TUI in a pseudo-terminal: `/review` and `--approve-for-me` against the scripted
model server (which plays the agent, the code reviewer and the approval reviewer)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from tests.e2e.test_tui_commands import joined, quit_app, send_line
from tests.e2e.test_tui_session import spawn
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn
from tests.support.trust import trust_project

pytestmark = pytest.mark.e2e

FINDINGS = {
    "findings": [
        {
            "title": "[P1] Subtraction instead of addition",
            "body": "add() now returns a - b.",
            "confidence_score": 0.9,
            "priority": 1,
            "code_location": {
                "absolute_file_path": "/repo/m.py",
                "line_range": {"start": 2, "end": 2},
            },
        }
    ],
    "overall_correctness": "patch is incorrect",
    "overall_explanation": "The change breaks add.",
    "overall_confidence_score": 0.8,
}


def test_tui_review_shows_findings_and_the_next_turn_knows_them(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=30)
    trust_project(repo)  # a repository: 0.169 asks about it whatever the flags
    model_server.add(turn(message(json.dumps(FINDINGS))), turn(message("Fixed it.")))
    flags = ["-a", "never", "-s", "workspace-write", *model_server.cli_flags()]
    term = spawn(codex_bin, flags, repo)
    term.wait_for("Ask Codex to do anything")
    send_line(term, "/review")
    term.wait_for("What should the reviewer look at?", timeout=30)
    term.child.send("\x1b[B")  # down: the uncommitted changes
    time.sleep(0.3)
    term.child.send("\r")
    term.wait_for("Subtraction instead of addition", timeout=45)
    term.wait_for("Worked for", timeout=30)
    send_line(term, "fix the P1")
    term.wait_for("Fixed it.", timeout=30)
    quit_app(term)
    review, follow_up = model_server.bodies
    assert '"overall_correctness"' in review["instructions"]
    assert "untracked" in joined(review)
    later = joined(follow_up)
    assert "<user_action>" in later and "[P1] Subtraction instead of addition" in later
    assert "fix the P1" in later


def test_tui_approve_for_me_denial_is_shown_and_nobody_is_asked(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=30)
    trust_project(repo)  # a repository: 0.169 asks about it whatever the flags
    target = tmp_path / "outside.txt"
    arguments = {
        "cmd": "touch ../outside.txt",  # short: the line and its reason fit the screen
        "sandbox_permissions": "require_escalated",
        "justification": "write outside",
    }
    deny = {"outcome": "deny", "rationale": "Not requested by the user.", "risk_level": "high"}
    model_server.add(
        turn(function_call("exec_command", arguments, call_id="c1")),
        turn(message(json.dumps(deny))),
        turn(message("I will not write there.")),
    )
    term = spawn(codex_bin, ["--approve-for-me", *model_server.cli_flags()], repo)
    term.wait_for("Ask Codex to do anything")
    send_line(term, "make the file")
    term.wait_for("Auto-review denied codex to run touch ../outside.txt: Not requested", 45)
    term.wait_for("I will not write there.", timeout=30)
    quit_app(term)
    assert not target.exists()
    assert len(model_server.bodies) == 3
