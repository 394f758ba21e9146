"""The working tree's git diff for `/diff`: tracked changes against HEAD plus untracked files."""

from __future__ import annotations

import subprocess
from pathlib import Path

from textual.content import Content

GIT_TIMEOUT_SECONDS = 30


class NotInGitError(Exception):
    """The directory is not inside a git work tree."""


def _git(args: list[str], cwd: Path, ok: tuple[int, ...] = (0,)) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        capture_output=True,
        timeout=GIT_TIMEOUT_SECONDS,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    if done.returncode not in ok:
        raise subprocess.CalledProcessError(done.returncode, args, done.stdout, done.stderr)
    return done.stdout.decode("utf-8", "replace")


def working_tree_diff(cwd: Path) -> str:
    """`git diff HEAD` (or against the empty tree before the first commit) and new files.

    Raises:
        NotInGitError: `cwd` is not in a git work tree (or git is missing).
    """
    try:
        root = Path(_git(["rev-parse", "--show-toplevel"], cwd).strip())
    except (OSError, subprocess.CalledProcessError) as err:
        raise NotInGitError(str(cwd)) from err
    try:
        _git(["rev-parse", "--verify", "--quiet", "HEAD"], root)
        base = "HEAD"
    except subprocess.CalledProcessError:
        base = _git(["hash-object", "-t", "tree", "/dev/null"], root).strip()
    parts = [_git(["diff", "--no-color", base, "--"], root)]
    untracked = _git(["ls-files", "--others", "--exclude-standard", "-z"], root)
    for path in sorted(p for p in untracked.split("\0") if p):
        parts.append(
            _git(["diff", "--no-color", "--no-index", "--", "/dev/null", path], root, ok=(0, 1))
        )
    return "".join(parts)


def diff_lines(diff: str) -> list[Content]:
    """Colour a unified diff line by line for the pager."""
    out: list[Content] = []
    for line in diff.splitlines():
        if line.startswith(("diff --git", "+++", "---", "index ", "new file", "deleted file")):
            out.append(Content.styled(line, "bold"))
        elif line.startswith("@@"):
            out.append(Content.styled(line, "$accent"))
        elif line.startswith("+"):
            out.append(Content.styled(line, "$success"))
        elif line.startswith("-"):
            out.append(Content.styled(line, "$error"))
        else:
            out.append(Content(line))
    return out
