"""A fork made by the Codex CLI 0.169 (`codex exec fork`) resumed by this codex: its history
lives in the original's file (`session_meta.history_base`), and this codex reads it there.

The two rollouts in tests/fixtures/cli_0169/fork/ were recorded with `codex-rust exec` and
`codex-rust exec fork`; `python -m tests.e2e.test_cli_fork_0169 record` records them again.
As in tests/fixtures/rollouts_0169, Codex's prompt text is elided from them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e

FIXTURES = Path(__file__).parent.parent / "fixtures" / "cli_0169" / "fork"
ELIDED = "[Codex 0.169 prompt text elided from this fixture]"


def conversation(body: dict[str, Any]) -> list[tuple[str, str]]:
    """(role, text) of every user and assistant message part of a request."""
    return [
        (item["role"], part["text"])
        for item in body["input"]
        if item.get("type") == "message" and item.get("role") in ("user", "assistant")
        for part in item["content"]
        if part.get("type") in ("input_text", "output_text")
    ]


def test_cli_exec_resume_reads_a_0169_fork_history_from_its_base(
    codex_bin: Path, codex_home: Path, tmp_path: Path, model_server: ModelServer
) -> None:
    meta = json.loads((FIXTURES / "meta.json").read_text())
    day = codex_home / "sessions" / "2026" / "11" / "27"
    day.mkdir(parents=True)
    for rollout in FIXTURES.glob("rollout-*.jsonl"):
        shutil.copyfile(rollout, day / rollout.name)
    model_server.add(turn(message("third answer")))
    env = {**os.environ, "CODEX_HOME": str(codex_home), "OPENAI_API_KEY": "sk-test"}

    done = subprocess.run(
        [str(codex_bin), "exec", "--skip-git-repo-check", *model_server.cli_flags()]
        + ["resume", meta["fork"], "third question"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
        stdin=subprocess.DEVNULL,
    )

    assert done.returncode == 0, done.stderr
    texts = [text for _, text in conversation(model_server.bodies[0])]
    wanted = ["first question", "first answer", "forked question", "forked answer"]
    assert [t for t in texts if t in wanted] == wanted
    assert texts[-1] == "third question"


def test_cli_delete_keeps_the_base_of_a_0169_fork(codex_bin: Path, codex_home: Path) -> None:
    meta = json.loads((FIXTURES / "meta.json").read_text())
    day = codex_home / "sessions" / "2026" / "11" / "27"
    day.mkdir(parents=True)
    for rollout in FIXTURES.glob("rollout-*.jsonl"):
        shutil.copyfile(rollout, day / rollout.name)
    env = {**os.environ, "CODEX_HOME": str(codex_home)}

    def delete(session: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(codex_bin), "delete", "--force", session],
            env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    refused = delete(meta["original"])
    assert refused.returncode == 1
    assert refused.stderr.startswith("Error: failed to delete session: fork ")
    assert len(list(day.glob("rollout-*.jsonl"))) == 2
    assert delete(meta["fork"]).returncode == 0
    assert delete(meta["original"]).returncode == 0  # nothing reads it any more
    assert list(day.glob("rollout-*.jsonl")) == []


def _elide(value: Any) -> Any:
    if isinstance(value, str):
        return ELIDED if len(value) > 200 else value
    if isinstance(value, list):
        return [_elide(v) for v in value]
    if isinstance(value, dict):
        return {k: _elide(v) for k, v in value.items()}
    return value


def _elided_line(record: dict[str, Any]) -> dict[str, Any]:
    payload = record.get("payload") or {}
    if record.get("type") == "session_meta" and "base_instructions" in payload:
        payload["base_instructions"] = _elide(payload["base_instructions"])
        if isinstance(payload["base_instructions"], dict):
            payload["base_instructions"] = {k: ELIDED for k in payload["base_instructions"]}
    if record.get("type") == "world_state":
        record["payload"] = _elide(payload)
    if payload.get("type") == "message" and payload.get("role") == "developer":
        for part in payload.get("content") or []:
            if "text" in part:
                part["text"] = ELIDED
    return record


def record() -> None:
    """Record an original and its fork with codex-rust (needs `codex-rust` on PATH)."""
    import pwd
    import tempfile

    base = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "codex-compat"
    base.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="home-", dir=base))
    try:
        with ModelServer([turn(message("first answer")), turn(message("forked answer"))]) as s:
            (home / "config.toml").write_text(
                f'model = "gpt-5.5"\nmodel_provider = "mock"\n[model_providers.mock]\n'
                f'name = "mock"\nbase_url = "{s.base_url}"\nenv_key = "OPENAI_API_KEY"\n'
                'wire_api = "responses"\n'
            )
            env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-test"}

            def exec_json(*args: str) -> str:
                done = subprocess.run(
                    ["codex-rust", "exec", "--skip-git-repo-check", "--json", *args],
                    cwd=home, env=env, capture_output=True, text=True, timeout=120, check=True,
                    stdin=subprocess.DEVNULL,
                )  # fmt: skip
                return str(json.loads(done.stdout.splitlines()[0])["thread_id"])

            original = exec_json("first question")
            fork = exec_json("fork", original, "forked question")
        if FIXTURES.exists():
            shutil.rmtree(FIXTURES)
        FIXTURES.mkdir(parents=True)
        for path in (home / "sessions").rglob("rollout-*.jsonl"):
            lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
            text = "".join(
                json.dumps(_elided_line(r), ensure_ascii=False, separators=(",", ":")) + "\n"
                for r in lines
            )
            (FIXTURES / path.name).write_text(text)
        version = subprocess.run(["codex-rust", "--version"], capture_output=True, text=True)
        (FIXTURES / "meta.json").write_text(
            json.dumps(
                {"recorded_with": version.stdout.strip(), "original": original, "fork": fork},
                indent=1,
            )
            + "\n"
        )
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__" and sys.argv[1:] == ["record"]:
    record()
