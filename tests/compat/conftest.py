"""Fixtures for the 0.169 compatibility tests: both binaries, a CODEX_HOME they can share.

`codex-rust` (or `$CODEX_RUST`) is the Codex CLI 0.169; tests that need it skip when it is
not installed. It refuses helper links under /tmp, so the shared CODEX_HOME lives under the
real user's ~/.cache/codex-compat instead of pytest's tmp_path, and is removed afterwards.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.model_server import ModelServer

FIXTURES = Path(__file__).parent.parent / "fixtures" / "rollouts_0169"
MODEL = 'model="gpt-5.5"'  # in 0.169's model catalogue: no metadata warning, apply_patch offered


@dataclass
class Cli:
    """One binary run with a given CODEX_HOME against the scripted server."""

    binary: str
    home: Path

    def exec(
        self,
        server: ModelServer,
        *args: str,
        cwd: Path,
        stdin: str = "",
        env: dict[str, str] | None = None,
        provider: bool = True,
    ) -> subprocess.CompletedProcess[str]:
        """`BINARY exec [provider flags] ARGS` in `cwd`; stdin is a pipe with `stdin`."""
        flags = [*server.cli_flags(), "-c", MODEL] if provider else []
        return self.run("exec", *flags, *args, cwd=cwd, stdin=stdin, env=env)

    def run(
        self, *args: str, cwd: Path, stdin: str = "", env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """`BINARY ARGS` with this CODEX_HOME and a dummy OPENAI_API_KEY."""
        environ = {**os.environ, "CODEX_HOME": str(self.home), "OPENAI_API_KEY": "sk-test"}
        environ.update(env or {})
        return subprocess.run(
            [self.binary, *args],
            cwd=cwd,
            env={k: v for k, v in environ.items() if v},
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
        )


def jsonl(stdout: str) -> list[dict[str, Any]]:
    """The JSON lines of `exec --json` output."""
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def thread_id(stdout: str) -> str:
    """The `thread.started` id of `exec --json` output."""
    return str(jsonl(stdout)[0]["thread_id"])


def user_texts(body: dict[str, Any]) -> list[str]:
    """Every input_text of every user message of a Responses request, in order."""
    return [
        part["text"]
        for item in body["input"]
        if item.get("type") == "message" and item.get("role") == "user"
        for part in item["content"]
        if part.get("type") == "input_text"
    ]


def rollout_records(path: Path) -> list[dict[str, Any]]:
    """Every line of a rollout file, parsed."""
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def rollout_of(home: Path, session_id: str) -> Path:
    """The one rollout file of `session_id` under `home/sessions`."""
    [path] = list((home / "sessions").rglob(f"rollout-*{session_id}.jsonl"))
    return path


def install_fixture(home: Path, name_part: str) -> Path:
    """Copy the recorded 0.169 rollout whose name contains `name_part` into `home`."""
    [source] = list(FIXTURES.glob(f"rollout-*{name_part}*.jsonl"))
    target = home / "sessions" / "2026" / "11" / "24" / source.name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def install_state_db(home: Path) -> Path:
    """An empty `state_5.sqlite` exactly as 0.169 creates it (schema + migration ledger)."""
    import sqlite3

    path = home / "state_5.sqlite"
    db = sqlite3.connect(path)
    db.executescript((FIXTURES / "state_5_schema.sql").read_text("utf-8"))
    db.close()
    return path


@pytest.fixture
def rust_bin() -> str:
    """The Codex CLI 0.169 binary, or skip."""
    found = os.environ.get("CODEX_RUST") or shutil.which("codex-rust")
    if not found:
        pytest.skip("codex-rust (the Codex CLI 0.169) is not installed; set $CODEX_RUST")
    return found


@pytest.fixture
def shared_home() -> Iterator[Path]:
    """A CODEX_HOME outside /tmp that both binaries accept."""
    base = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "codex-compat"
    base.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="home-", dir=base))
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A git repository to run in."""
    repo = tmp_path / "project"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo.resolve()


@pytest.fixture
def ours(codex_bin: Path, shared_home: Path) -> Cli:
    """This project's `codex`, on the shared CODEX_HOME."""
    return Cli(str(codex_bin), shared_home)


@pytest.fixture
def rust(rust_bin: str, shared_home: Path) -> Cli:
    """The Codex CLI 0.169, on the shared CODEX_HOME."""
    return Cli(rust_bin, shared_home)
