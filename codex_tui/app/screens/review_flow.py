"""`/review`: pick what to review (as the Codex CLI 0.169's presets), then submit one `review` op.

`/review TEXT` reviews with TEXT as the instructions at once. `/review` alone asks: the
uncommitted changes, the branch against a base branch (local branches, read from files), a
commit (the last ones, listed through `HostGit`, which runs nothing the repository could
have planted), or custom instructions (the composer gets `/review ` to type them after).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any, Protocol

from textual.app import App
from textual.widget import Widget

from codex_core.protocol import (
    BaseBranchTarget,
    CommitTarget,
    CustomTarget,
    Op,
    ReviewOp,
    ReviewTarget,
    UncommittedTarget,
)
from codex_tui.app.screens.choice import Choice, ChoiceScreen
from codex_tui.app.widgets.cells.notice_cell import NoticeCell
from codex_tui.app.widgets.composer import Composer

PRESETS = [
    Choice("base", "Review against a base branch", "(PR style) what this branch would merge"),
    Choice("uncommitted", "Review uncommitted changes", "staged, unstaged and untracked files"),
    Choice("commit", "Review a commit", "the changes one commit made"),
    Choice("custom", "Custom review instructions", "type what to look at"),
]
COMMITS_SHOWN = 20


class ReviewHost(Protocol):
    """What the flow needs from the chat screen."""

    @property
    def app(self) -> App[Any]:
        """The app (the pickers are pushed on it)."""
        ...

    @property
    def composer(self) -> Composer:
        """The composer."""
        ...

    async def add_cell(self, cell: Widget) -> None:
        """Append a cell to the transcript."""
        ...

    async def submit_op(self, op: Op) -> None:
        """Submit an op to the session."""
        ...


def local_branches(cwd: Path) -> tuple[list[str], str | None]:
    """The repository's local branches and the current one (read from files only)."""
    from codex_core.git_repo import find_repo, read_head

    repo = find_repo(cwd)
    if repo is None:
        return [], None
    _, current = read_head(repo)
    heads = repo.common_dir / "refs" / "heads"
    names: set[str] = set()
    for folder, _dirs, files in os.walk(heads):
        names.update(str((Path(folder) / f).relative_to(heads)) for f in files)
    try:
        packed = (repo.common_dir / "packed-refs").read_text("utf-8", errors="replace")
    except OSError:
        packed = ""
    for line in packed.splitlines():
        _, _, ref = line.partition(" ")
        if ref.startswith("refs/heads/"):
            names.add(ref.removeprefix("refs/heads/"))
    return sorted(names), current


def recent_commits(cwd: Path) -> list[tuple[str, str]]:
    """(sha, subject) of the last commits of HEAD, newest first; empty when there are none."""
    from codex_core.git_repo import find_repo, read_head
    from codex_core.host_git import HostGit, HostGitError

    repo = find_repo(cwd)
    head = read_head(repo)[0] if repo is not None else None
    if repo is None or head is None:
        return []
    try:
        out = HostGit(repo).run(["log", "-n", str(COMMITS_SHOWN), "--format=%H%x00%s", head])
    except HostGitError:
        return []
    commits = []
    for line in out.decode("utf-8", "replace").splitlines():
        sha, _, subject = line.partition("\0")
        if sha:
            commits.append((sha, subject))
    return commits


async def start_review(screen: ReviewHost, cwd: Path, args: str) -> None:
    """`/review [TEXT]`: review at once with TEXT, or ask what to review."""
    if args:
        await submit_review(screen, CustomTarget(instructions=args))
        return

    async def preset(choice: str | None) -> None:
        await picked_preset(screen, cwd, choice)

    screen.app.push_screen(
        ChoiceScreen("Select a review preset", "What should the reviewer look at?", PRESETS),
        callback=preset,
    )


async def picked_preset(screen: ReviewHost, cwd: Path, choice: str | None) -> None:
    """The second step of `/review`, once a preset is picked."""
    push = screen.app.push_screen
    if choice == "uncommitted":
        await submit_review(screen, UncommittedTarget())
    elif choice == "base":
        branches, current = await asyncio.to_thread(local_branches, cwd)
        if not branches:
            await screen.add_cell(NoticeCell("info", "No local branch to review against"))
            return

        async def branch(name: str | None) -> None:
            if name is not None:
                await submit_review(screen, BaseBranchTarget(branch=name))

        rows = [Choice(name, name) for name in branches]
        where = f"Current branch: {current}" if current else "Detached HEAD"
        push(ChoiceScreen("Select a base branch", where, rows), callback=branch)
    elif choice == "commit":
        commits = await asyncio.to_thread(recent_commits, cwd)
        if not commits:
            await screen.add_cell(NoticeCell("info", "No commit to review here"))
            return
        titles = dict(commits)

        async def commit(sha: str | None) -> None:
            if sha is not None:
                await submit_review(screen, CommitTarget(sha=sha, title=titles[sha] or None))

        rows = [Choice(sha, sha[:7], subject) for sha, subject in commits]
        push(ChoiceScreen("Select a commit to review", "Newest first", rows), callback=commit)
    elif choice == "custom":
        screen.composer.load_text("/review ")


async def submit_review(screen: ReviewHost, target: ReviewTarget) -> None:
    """One line saying what is reviewed, then the `review` op (`codex review`'s)."""
    from codex_core.review import review_hint

    await screen.add_cell(NoticeCell("info", f"Code review: {review_hint(target)}"))
    await screen.submit_op(ReviewOp(target=target))
