"""`--worktree`: a new managed git worktree of the repository at HEAD for the session to run
in, where Codex 0.169 puts it: `$CODEX_HOME/worktrees/<4 hex>/<repo dir name>`, detached,
registered with the repository (`git worktree list` shows it) and left there after the run.

Uncommitted and untracked changes stay behind, as in 0.169. Nothing of the repository's runs:
git is never pointed at the repository's own configuration (so no hook, fsmonitor, filter or
`post-checkout` of the workspace runs). The registration files 0.169 gets from
`git worktree add` are written here (`<common dir>/worktrees/<name>/{gitdir,commondir,HEAD}`
and the worktree's `.git` file), and the files are checked out by `HostGit` (see
`codex_core.host_git`) into the new tree with the worktree's own index. Consequence of
that rule: `.gitattributes` filters (git-lfs smudge, say) are not applied to the checkout.
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

from codex_core.git_repo import find_repo, read_head
from codex_core.host_git import HostGit, HostGitError

WORKTREES_DIR = "worktrees"


class WorktreeError(Exception):
    """The worktree cannot be made; the message is one line with the reason."""


def create_managed_worktree(codex_home: Path, cwd: Path) -> Path:
    """Make a detached worktree of the repository around `cwd` at its HEAD.

    Returns:
        The directory in the new worktree that corresponds to `cwd` (the session's cwd).

    Raises:
        WorktreeError: `cwd` is in no repository, HEAD has no commit, or git failed.
    """
    start = cwd.expanduser().resolve()
    repo = find_repo(start)
    if repo is None:
        raise WorktreeError(f"{start} is not inside a git repository; --worktree needs one")
    commit, _branch = read_head(repo)
    if commit is None:
        raise WorktreeError("the repository has no commit yet; --worktree checks out HEAD")
    registry = repo.common_dir / WORKTREES_DIR
    if registry.is_symlink() or (registry.exists() and not registry.is_dir()):
        raise WorktreeError(f"{registry} is not a directory; refusing to register a worktree")
    top = _new_slot(Path(codex_home) / WORKTREES_DIR)
    tree = top / repo.work_tree.name
    admin: Path | None = None
    try:
        tree.mkdir()
        registry.mkdir(exist_ok=True)
        admin = _new_admin_dir(registry, repo.work_tree.name)
        _write(admin / "gitdir", f"{tree / '.git'}\n")
        _write(admin / "commondir", "../..\n")
        _write(admin / "HEAD", f"{commit}\n")
        _write(tree / ".git", f"gitdir: {admin}\n")
        git = HostGit(repo, Path(codex_home))
        env = {"GIT_WORK_TREE": str(tree), "GIT_INDEX_FILE": str(admin / "index")}
        git.run(["read-tree", commit], env=env, cwd=tree)
        git.run(["checkout-index", "--all", "--force"], env=env, cwd=tree)
    except (OSError, HostGitError) as err:
        shutil.rmtree(top, ignore_errors=True)
        if admin is not None:
            shutil.rmtree(admin, ignore_errors=True)
        raise WorktreeError(f"cannot create the worktree: {err}") from None
    inside = start.relative_to(repo.work_tree.resolve())
    target = tree / inside
    return target if target.is_dir() else tree


def _new_slot(base: Path) -> Path:
    """A fresh `<base>/<4 hex>` directory."""
    base.mkdir(parents=True, exist_ok=True, mode=0o700)
    for _ in range(1000):
        slot = base / secrets.token_hex(2)
        try:
            slot.mkdir()
        except FileExistsError:
            continue
        return slot
    raise WorktreeError(f"no free worktree slot under {base}")


def _new_admin_dir(registry: Path, name: str) -> Path:
    """`<registry>/<name>`, or `<name>1`, `<name>2`... as git names a taken one; created here
    (never an existing entry, so nothing planted there is written through)."""
    for index in range(1000):
        admin = registry / (name if index == 0 else f"{name}{index}")
        try:
            admin.mkdir()
        except FileExistsError:
            continue
        return admin
    raise WorktreeError(f"too many worktrees named {name} in {registry}")


def _write(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
