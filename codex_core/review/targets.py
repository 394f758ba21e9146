"""What the reviewer is asked to look at: its prompt, the short label users see, its rubric.

As in the Codex CLI 0.169 the diff itself is never sent: the prompt names the target (the
merge base of a branch, a commit) and the reviewer runs git in its read-only sandbox. The
merge base is computed on the host through `HostGit`, which runs nothing the workspace
could have planted.
"""

from __future__ import annotations

import logging
import re
from importlib import resources
from pathlib import Path

from codex_core.protocol.review import (
    BaseBranchTarget,
    CommitTarget,
    CustomTarget,
    ReviewTarget,
    UncommittedTarget,
)

log = logging.getLogger(__name__)

_BRANCH = re.compile(r"[A-Za-z0-9._/@+-]+")


def review_instructions() -> str:
    """The reviewer's instructions: how to review and the JSON shape of the answer."""
    return (resources.files("codex_core") / "prompts" / "review_rubric.md").read_text("utf-8")


def review_hint(target: ReviewTarget) -> str:
    """The short label of a target, as 0.169 shows it (`current changes`, `commit abc1234`)."""
    match target:
        case UncommittedTarget():
            return "current changes"
        case BaseBranchTarget(branch=branch):
            return f"changes against '{branch}'"
        case CommitTarget(sha=sha, title=title):
            return f"commit {sha[:7]}: {title}" if title else f"commit {sha[:7]}"
        case CustomTarget(instructions=text):
            return text.strip()


def review_prompt(target: ReviewTarget, cwd: Path) -> str:
    """The reviewer's task for `target` (custom instructions are sent as they are)."""
    match target:
        case UncommittedTarget():
            return (
                "Review the changes in the working tree that are not committed yet: staged, "
                "unstaged and untracked files. List your findings, most important first."
            )
        case BaseBranchTarget(branch=branch):
            base = merge_base(cwd, branch)
            if base is None:
                return (
                    f"Review what the current branch would merge into '{branch}'. Find the "
                    f"merge base first (`git merge-base HEAD {branch}`, or with the upstream "
                    f"of {branch} if there is no local branch), then inspect `git diff` "
                    "against it. List your findings, most important first."
                )
            return (
                f"Review the changes of the current branch against the base branch "
                f"'{branch}'. Their merge base is commit {base}: run `git diff {base}` to "
                f"see what changed relative to {branch}. List your findings, most important "
                "first."
            )
        case CommitTarget(sha=sha, title=title):
            named = f'commit {sha} ("{title}")' if title else f"commit {sha}"
            return f"Review the changes made by {named}. List your findings, most important first."
        case CustomTarget(instructions=text):
            return text


def merge_base(cwd: Path, branch: str) -> str | None:
    """The merge base of HEAD and the local branch `branch` (or a remote-tracking one),
    computed on the host without reading any configuration of the repository; None when
    the branch or HEAD cannot be found."""
    from codex_core.git_repo import find_repo, read_head
    from codex_core.host_git import HostGit, HostGitError

    if not _BRANCH.fullmatch(branch) or ".." in branch or branch.startswith(("/", "-")):
        return None
    repo = find_repo(cwd)
    if repo is None:
        return None
    head, _ = read_head(repo)
    tip = _ref(repo.common_dir, f"refs/heads/{branch}") or _ref(
        repo.common_dir, f"refs/remotes/{branch}"
    )
    if head is None or tip is None:
        return None
    try:
        out = HostGit(repo).run(["merge-base", head, tip])
    except HostGitError as err:
        log.info("no merge base of HEAD and %s: %s", branch, err)
        return None
    found = out.decode("ascii", "replace").strip()
    return found or None


def _ref(common_dir: Path, name: str) -> str | None:
    """The object id a ref names, from its file or `packed-refs`."""
    from codex_core.git_repo import _is_object_id, _packed_ref

    try:
        text = (common_dir / name).read_text("utf-8", errors="replace").strip()
    except OSError:
        text = ""
    if _is_object_id(text):
        return text
    return _packed_ref(common_dir, name)
