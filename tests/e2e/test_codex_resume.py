"""Resuming sessions through the real console script: exec resume, foreign rollouts, crashes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_codex_exec import jsonl, provider_flags, run_codex
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn, usage
from tests.support.steps import hang

pytestmark = pytest.mark.e2e
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rollouts"
RUST_FIXTURE_ID = "0199a213-81c0-7800-8aa1-bbab2a035a53"


def rollout_files(codex_home: Path) -> list[Path]:
    return sorted((codex_home / "sessions").rglob("rollout-*.jsonl"))


def texts_of(body: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for item in body["input"]:
        if item.get("type") == "message":
            out.extend(part.get("text", "") for part in item["content"])
    return out


def test_codex_exec_resume_last_continues_the_conversation(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, codex_home: Path
) -> None:
    model_server.add(
        turn(message("First answer."), usage=usage(input=10, output=3)),
        turn(message("Second answer."), usage=usage(input=20, output=3)),
    )
    flags = ["--skip-git-repo-check", "--json", *provider_flags(model_server, "responses")]
    first = run_codex(codex_bin, ["exec", *flags, "remember the word kiwi"], tmp_path)
    assert first.returncode == 0, first.stderr
    thread_id = jsonl(first.stdout)[0]["thread_id"]
    [path] = rollout_files(codex_home)
    lines_before = path.read_text().splitlines()

    second = run_codex(codex_bin, ["exec", "resume", "--last", *flags, "continue"], tmp_path)
    assert second.returncode == 0, second.stderr
    assert jsonl(second.stdout)[0]["thread_id"] == thread_id
    texts = texts_of(model_server.bodies[1])
    assert "remember the word kiwi" in texts and "First answer." in texts
    assert texts[-1] == "continue"
    assert rollout_files(codex_home) == [path]
    lines_after = path.read_text().splitlines()
    assert lines_after[: len(lines_before)] == lines_before
    assert len(lines_after) > len(lines_before)


def test_codex_resume_rust_written_rollout_by_id(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, codex_home: Path
) -> None:
    day = codex_home / "sessions" / "2025" / "10" / "01"
    day.mkdir(parents=True)
    for fixture in FIXTURES.glob("*.jsonl"):
        shutil.copy(fixture, day / fixture.name)
    listed = run_codex(codex_bin, ["sessions", "list", "--json", "--all"], tmp_path)
    assert listed.returncode == 0, listed.stderr
    sessions = [json.loads(line) for line in listed.stdout.splitlines()]
    mine = next(s for s in sessions if s["id"] == RUST_FIXTURE_ID)
    assert mine["preview"].startswith("The tokenizer test fails on empty input")

    model_server.add(turn(message("Resumed."), usage=usage(input=30, output=2)))
    flags = ["--skip-git-repo-check", "--json", *provider_flags(model_server, "responses")]
    done = run_codex(codex_bin, ["exec", "resume", *flags, RUST_FIXTURE_ID, "go on"], tmp_path)
    assert done.returncode == 0, done.stderr
    body = model_server.bodies[0]
    texts = texts_of(body)
    assert "The tokenizer test fails on empty input, please fix it" in texts
    assert texts[-1] == "go on"
    # The fixture was compacted mid-way: the summary stands in for the turns before it.
    assert any("Fixed tokenize() for empty input" in text for text in texts)


def test_codex_resume_after_kill_9_keeps_every_written_line(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, codex_home: Path
) -> None:
    model_server.add(
        turn(message("Answer one."), usage=usage(input=10, output=3)),
        hang(30, [], before_headers=False),
        turn(message("Back again."), usage=usage(input=20, output=3)),
    )
    flags = ["--skip-git-repo-check", "--json", *provider_flags(model_server, "responses")]
    assert run_codex(codex_bin, ["exec", *flags, "first task"], tmp_path).returncode == 0
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    proc = subprocess.Popen(
        [str(codex_bin), "exec", "resume", "--last", *flags, "second task"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    [path] = rollout_files(codex_home)
    deadline = time.monotonic() + 30
    while "second task" not in path.read_text() or len(model_server.requests) < 2:
        assert time.monotonic() < deadline, "the resumed turn never reached the model"
        time.sleep(0.05)
    written = path.read_text().splitlines()
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)

    after_kill = path.read_text().splitlines()
    assert after_kill[: len(written)] == written
    model_server.add(turn(message("Third."), usage=usage(input=5, output=1)))
    third = run_codex(codex_bin, ["exec", "resume", "--last", *flags, "third task"], tmp_path)
    assert third.returncode == 0, third.stderr
    texts = texts_of(model_server.bodies[-1])
    assert "first task" in texts and "Answer one." in texts and "second task" in texts
