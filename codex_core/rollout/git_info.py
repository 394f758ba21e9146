"""Git facts about a working directory (commit, branch, remote) for the rollout's session_meta."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

GIT_TIMEOUT_SECONDS = 2.0


def _git(cwd: Path, *args: str, timeout: float) -> str | None:
    """Stdout of `git args…` in `cwd`, stripped, or None if git fails, is missing or is slow."""
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if done.returncode != 0:
        return None
    value = done.stdout.strip()
    return value or None


def collect_git_info(cwd: Path, timeout: float = GIT_TIMEOUT_SECONDS) -> dict[str, Any] | None:
    """The `git` object of session_meta, or None outside a repository.

    Each git call has a short timeout so a slow or hung repository never delays a session.

    Args:
        cwd: The session's working directory.
        timeout: Seconds allowed for each git subprocess.
    """
    commit = _git(cwd, "rev-parse", "HEAD", timeout=timeout)
    if commit is None and _git(cwd, "rev-parse", "--git-dir", timeout=timeout) is None:
        return None
    info: dict[str, Any] = {}
    if commit is not None:
        info["commit_hash"] = commit
    branch = _git(cwd, "rev-parse", "--abbrev-ref", "HEAD", timeout=timeout)
    if branch is not None and branch != "HEAD":
        info["branch"] = branch
    remote = _git(cwd, "remote", "get-url", "origin", timeout=timeout)
    if remote is not None:
        info["repository_url"] = remote
    return info
