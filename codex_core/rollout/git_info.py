"""Git facts about a working directory (commit, branch, remote) for the rollout's session_meta.

Read from the repository's files (`codex_core.git_repo`), never by running git: the
workspace is the model's to write, and git would execute what its configuration names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from codex_core.git_repo import config_value, find_repo, read_head


def collect_git_info(cwd: Path, timeout: float = 0.0) -> dict[str, Any] | None:
    """The `git` object of session_meta, or None outside a repository.

    Args:
        cwd: The session's working directory.
        timeout: Unused (nothing is run any more); kept for callers.
    """
    del timeout
    repo = find_repo(cwd)
    if repo is None:
        return None
    commit, branch = read_head(repo)
    info: dict[str, Any] = {}
    if commit is not None:
        info["commit_hash"] = commit
        if branch is not None:  # (an unborn branch has no name in git's answer either)
            info["branch"] = branch
    remote = config_value(repo.common_dir / "config", "remote", "origin", "url")
    if remote:
        info["repository_url"] = remote
    return info
