"""When the TUI asks whether to trust its directory: Codex CLI 0.169's rule (observed in a pty
side by side with codex-rust 0.169; tests/compat/test_tui_trust_0169.py runs both): only in a
git work tree with no level recorded for the directory, its repository root or its main
worktree; other ancestors and the command line's sandbox/approval flags do not matter."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from codex_core.config import ConfigOverrides, load_config
from codex_tui.app.core import TrustRequest
from codex_tui.app.real_boot import RealBoot
from tests.support.trust import trust_project


def _request(cwd: Path, codex_home: Path, **flags: str) -> TrustRequest | None:
    overrides = ConfigOverrides(cwd=cwd, **flags)  # type: ignore[arg-type]
    boot = RealBoot(overrides, [], load_config(overrides, [], codex_home=codex_home))
    return boot.trust_request()


def _asks(cwd: Path, codex_home: Path, **flags: str) -> bool:
    """The trust question (not the open-restricted screen of a folder recorded untrusted)."""
    request = _request(cwd, codex_home, **flags)
    return request is not None and not request.restricted


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=30)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "sub" / "deeper").mkdir(parents=True)
    _git("init", "-q", cwd=root)
    return root


def test_a_folder_outside_git_is_never_asked_about(tmp_path: Path, codex_home: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert not _asks(plain, codex_home)


def test_a_repository_is_asked_about_even_with_policy_flags(repo: Path, codex_home: Path) -> None:
    assert _asks(repo, codex_home)
    assert _asks(repo / "sub", codex_home)
    assert _asks(repo, codex_home, sandbox_mode="workspace-write")
    assert _asks(repo, codex_home, approval_policy="never")
    assert _asks(repo, codex_home, sandbox_mode="danger-full-access", approval_policy="never")


@pytest.mark.parametrize(
    ("recorded", "cwd", "asked"),
    [
        ("repo", "repo", False),
        ("repo", "repo/sub", False),  # the repository root's level covers its folders
        ("repo/sub", "repo/sub", False),  # the folder's own level
        ("repo/sub", "repo/sub/deeper", True),  # a level between root and folder: not read
        (".", "repo", True),  # a trusted parent of the repository: asked again
    ],
)
def test_which_recorded_levels_count(
    repo: Path, codex_home: Path, recorded: str, cwd: str, asked: bool
) -> None:
    trust_project(repo.parent / recorded if recorded != "." else repo.parent, codex_home=codex_home)
    assert _asks(repo.parent / cwd, codex_home) is asked


def test_an_untrusted_record_is_a_decision_too(repo: Path, codex_home: Path) -> None:
    trust_project(repo, "untrusted", codex_home=codex_home)
    assert not _asks(repo / "sub", codex_home)
    # ... shown, as 0.169, as the open-restricted screen on every launch (git or not)
    request = _request(repo / "sub", codex_home)
    assert request is not None and request.restricted


def test_a_folder_outside_git_recorded_untrusted_opens_restricted(
    tmp_path: Path, codex_home: Path
) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    trust_project(plain, "untrusted", codex_home=codex_home)
    request = _request(plain, codex_home)
    assert request is not None and request.restricted and not request.is_git_repo


def test_a_linked_worktree_takes_its_main_repository_level(
    repo: Path, tmp_path: Path, codex_home: Path
) -> None:
    _git(
        "-c",
        "user.email=u@e",
        "-c",
        "user.name=u",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "i",
        cwd=repo,
    )
    _git("worktree", "add", "-q", str(tmp_path / "linked"), cwd=repo)
    assert _asks(tmp_path / "linked", codex_home)
    trust_project(repo, codex_home=codex_home)
    assert not _asks(tmp_path / "linked", codex_home)
