"""The TUI asks its app-server child for the first session at spawn only when no start-up
question comes first: an untrusted project's config (and the project's own layer) must not
be read by a session before the user answered the trust question, nor a session start
without the API key the user is about to paste."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from codex_core.config import ConfigOverrides, load_config
from codex_tui.app.real_boot import RealBoot
from tests.support.trust import trust_project


def _boot(project: Path, codex_home: Path, **flags: str) -> RealBoot:
    overrides = ConfigOverrides(cwd=project, **flags)  # type: ignore[arg-type]
    return RealBoot(overrides, [], load_config(overrides, [], codex_home=codex_home))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, timeout=30)  # asked about
    return root


def test_no_early_session_before_the_trust_question(
    project: Path, codex_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    boot = _boot(project, codex_home)
    assert boot.trust_request() is not None  # a project nobody decided on yet
    boot.open_early(None)
    assert boot.early is None and boot.spare is None  # nothing spawned, nothing asked


def test_no_early_session_before_the_api_key_question(
    project: Path, codex_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    trust_project(project, codex_home=codex_home)  # no trust question comes first
    boot = _boot(project, codex_home, sandbox_mode="read-only", approval_policy="never")
    assert boot.trust_request() is None and boot.key_request() is not None
    boot.open_early(None)
    assert boot.early is None and boot.spare is None


def test_early_session_when_no_question_comes_first(
    project: Path, codex_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    trust_project(project, codex_home=codex_home)  # no trust question comes first
    boot = _boot(project, codex_home, sandbox_mode="read-only", approval_policy="never")
    boot.open_early(None)
    try:
        assert boot.early == ("thread/start", None)
        assert boot.spare is not None and boot.spare.poll() is None
    finally:
        spare = boot.spare
        boot.release_spare()
        if spare is not None:
            spare.wait(timeout=30)
