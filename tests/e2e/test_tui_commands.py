"""The real TUI in a pseudo-terminal: /new, backtrack fork, /compact, /undo and @ insert."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_tui_session import Terminal, spawn
from tests.support.model_server import ModelServer
from tests.support.sse import message, shell_call, turn, usage
from tests.support.trust import trust_project

pytestmark = pytest.mark.e2e


def texts(body: dict[str, Any]) -> list[str]:
    """Every text part of every message in a request."""
    return [
        part.get("text", "")
        for item in body["input"]
        if item.get("type") == "message"
        for part in item["content"]
    ]


def joined(body: dict[str, Any]) -> str:
    return "\n".join(texts(body))


def send_line(term: Terminal, text: str) -> None:
    """Type `text`, and press Enter once the composer shows it."""
    term.child.send(text)
    term.wait_for_composer(text)
    term.child.send("\r")


def quit_app(term: Terminal) -> str:
    term.child.send("\x04")
    return term.rest()


def start(codex_bin: Path, server: ModelServer, project: Path, *extra: str) -> Terminal:
    flags = ["-a", "never", "-s", "danger-full-access", *server.cli_flags(), *extra]
    term = spawn(codex_bin, flags, project)
    term.wait_for("Ask Codex to do anything")
    return term


def test_tui_slash_new_forgets_earlier_messages(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(
        turn(message("First answer."), usage=usage(input=100, output=5)),
        turn(message("Fresh answer."), usage=usage(input=100, output=5)),
    )
    term = start(codex_bin, model_server, tmp_path)
    send_line(term, "remember the word PELICAN")
    term.wait_for("First answer.")
    send_line(term, "/new")
    term.wait_for("Ask Codex to do anything")
    time.sleep(0.5)
    send_line(term, "what was the word?")
    term.wait_for("Fresh answer.")
    quit_app(term)
    assert len(model_server.bodies) == 2
    last = joined(model_server.bodies[-1])
    assert "what was the word?" in last and "PELICAN" not in last


def test_tui_backtrack_fork_drops_later_turns(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, codex_home: Path
) -> None:
    model_server.add(
        turn(message("Answer one."), usage=usage(input=100, output=5)),
        turn(message("Answer two."), usage=usage(input=100, output=5)),
        turn(message("Answer edited."), usage=usage(input=100, output=5)),
    )
    term = start(codex_bin, model_server, tmp_path)
    send_line(term, "question ALPHA")
    term.wait_for("Answer one.")
    send_line(term, "question BRAVO")
    term.wait_for("Answer two.")
    for _ in range(3):  # arm, select the newest, step back to the first
        term.child.send("\x1b")
        time.sleep(0.4)
    term.wait_for("message 1/2")
    term.child.send("\r")
    time.sleep(0.3)
    send_line(term, " CHARLIE")
    term.wait_for("Answer edited.")
    quit_app(term)
    last = joined(model_server.bodies[-1])
    assert "question ALPHA CHARLIE" in last
    assert "BRAVO" not in last and "Answer one." not in last
    metas = [
        json.loads(path.read_text().splitlines()[0])["payload"]
        for path in (codex_home / "sessions").rglob("rollout-*.jsonl")
    ]
    forked = [meta for meta in metas if meta.get("forked_from")]
    assert len(metas) == 2 and len(forked) == 1
    assert forked[0]["forked_from"] in {meta["id"] for meta in metas}


def test_tui_compact_then_next_request_carries_the_summary(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(
        turn(message("Long answer about the parser."), usage=usage(input=1000, output=50)),
        turn(
            message("SUMMARY: the user asked about the parser."), usage=usage(input=900, output=20)
        ),
        turn(message("After compaction."), usage=usage(input=100, output=5)),
    )
    term = start(codex_bin, model_server, tmp_path)
    send_line(term, "explain the parser")
    term.wait_for("Long answer about the parser.")
    send_line(term, "/compact")
    term.wait_for("Worked for", timeout=30)
    time.sleep(0.5)
    send_line(term, "continue please")
    term.wait_for("After compaction.")
    quit_app(term)
    assert len(model_server.bodies) == 3
    last = joined(model_server.bodies[-1])
    assert "SUMMARY: the user asked about the parser." in last
    assert "Long answer about the parser." not in last


def test_tui_undo_restores_the_file(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    for args in (["init", "-q"], ["config", "user.email", "u@e"], ["config", "user.name", "u"]):
        subprocess.run(["git", *args], cwd=project, check=True)
    (project / "notes.txt").write_text("original\n")
    subprocess.run(["git", "add", "."], cwd=project, check=True)
    subprocess.run(["git", "commit", "-qm", "init"], cwd=project, check=True)
    trust_project(project)  # a repository: 0.169 asks about it whatever the flags
    (project / "notes.txt").write_text("original, edited by me\n")  # a dirty tree
    model_server.add(
        turn(
            shell_call(["bash", "-lc", "echo clobbered > notes.txt && echo new > made.txt"]),
            usage=usage(input=100, output=5),
        ),
        turn(message("Changed the files."), usage=usage(input=100, output=5)),
    )
    term = start(codex_bin, model_server, project)
    send_line(term, "change the notes")
    term.wait_for("Changed the files.")
    assert (project / "notes.txt").read_text() == "clobbered\n"
    send_line(term, "/undo")
    term.wait_for("Undo: restored 2 files")
    quit_app(term)
    assert (project / "notes.txt").read_text() == "original, edited by me\n"
    assert not (project / "made.txt").exists()
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=project, capture_output=True, text=True, check=True
    ).stdout
    assert status == " M notes.txt\n"


def test_tui_at_mention_inserts_the_path(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "architecture_overview.md").write_text("# hi\n")
    model_server.add(turn(message("Read it."), usage=usage(input=100, output=5)))
    term = start(codex_bin, model_server, tmp_path)
    term.child.send("summarise @archover")
    term.wait_for("docs/architecture_overview.md")
    time.sleep(0.3)
    term.child.send("\t")
    time.sleep(0.3)
    term.child.send("\r")
    term.wait_for("Read it.")
    quit_app(term)
    assert "summarise docs/architecture_overview.md" in texts(model_server.bodies[-1])[-1]
