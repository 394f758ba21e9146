"""Finding a git repository and reading its HEAD and config as files, without running git.

Cheap to import (frontends ask "is this a repository?" at start-up); running git on the
host goes through `codex_core.host_git`.
"""

from __future__ import annotations

from pathlib import Path

_HEXDIGITS = frozenset("0123456789abcdef")


def _is_object_id(text: str) -> bool:
    return len(text) in (40, 64) and set(text) <= _HEXDIGITS


class Repo:
    """A repository as found on disk: its work tree, git directory and common directory."""

    __slots__ = ("work_tree", "git_dir", "common_dir")

    def __init__(self, work_tree: Path, git_dir: Path, common_dir: Path) -> None:
        """Hold the three paths."""
        self.work_tree = work_tree
        self.git_dir = git_dir
        self.common_dir = common_dir

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Repo) and (self.work_tree, self.git_dir, self.common_dir) == (
            other.work_tree,
            other.git_dir,
            other.common_dir,
        )

    def __hash__(self) -> int:
        return hash((self.work_tree, self.git_dir, self.common_dir))

    def __repr__(self) -> str:
        return f"Repo({self.work_tree!r}, {self.git_dir!r}, {self.common_dir!r})"


def _read_line(path: Path) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.readline().strip()
    except OSError:
        return None


def git_dir_of(dot_git: Path) -> tuple[Path, Path] | None:
    """(git dir, common dir) for a `.git` entry, or None when it is no repository."""
    if dot_git.is_file():
        line = _read_line(dot_git) or ""
        if not line.startswith("gitdir:"):
            return None
        git_dir = (dot_git.parent / line[7:].strip()).resolve()
    elif dot_git.is_dir():
        git_dir = dot_git.resolve()
    else:
        return None
    common = _read_line(git_dir / "commondir")
    common_dir = (git_dir / common).resolve() if common else git_dir
    if not (git_dir / "HEAD").is_file() or not (common_dir / "objects").is_dir():
        return None  # an empty placeholder or a stray file: git keeps looking upward too
    return git_dir, common_dir


def find_repo(cwd: Path) -> Repo | None:
    """The repository whose work tree contains `cwd` (nearest `.git` upward), or None."""
    start = cwd.expanduser().absolute()
    for candidate in (start, *start.parents):
        found = git_dir_of(candidate / ".git")
        if found is not None:
            return Repo(candidate, *found)
    return None


def _packed_ref(common_dir: Path, name: str) -> str | None:
    try:
        with open(common_dir / "packed-refs", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                value, _, ref = line.strip().partition(" ")
                if ref == name and _is_object_id(value):
                    return value
    except OSError:
        pass
    return None


def read_head(repo: Repo) -> tuple[str | None, str | None]:
    """(commit id, branch) of HEAD, read from files; None where unborn or unreadable."""
    line = _read_line(repo.git_dir / "HEAD") or ""
    branch: str | None = None
    for _ in range(5):
        if _is_object_id(line):
            return line, branch
        if not line.startswith("ref:"):
            return None, branch
        name = line[4:].strip()
        if branch is None and name.startswith("refs/heads/"):
            branch = name[len("refs/heads/") :]
        if ".." in name.split("/") or name.startswith("/"):
            return None, branch
        base = repo.git_dir if name.count("/") < 1 else repo.common_dir
        line = _read_line(base / name) or _packed_ref(repo.common_dir, name) or ""
    return None, branch


def config_value(path: Path, section: str, subsection: str | None, key: str) -> str | None:
    """One value of a git config file, read as text (includes are not followed)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    import re  # lazily: only git info for a rollout reads a config file

    current: tuple[str, str | None] | None = None
    found: str | None = None
    for raw in text.splitlines():
        line = raw.strip()
        header = re.match(r'^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]', line)
        if header:
            current = (header.group(1).lower(), header.group(2))
            continue
        name, eq, value = line.partition("=")
        if eq and current == (section, subsection) and name.strip().lower() == key:
            found = value.split(" #")[0].split(" ;")[0].strip().strip('"')
    return found
