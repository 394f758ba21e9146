"""When the TUI asks whether to trust the directory it starts in — Codex CLI 0.169's rule.

Observed side by side with codex-rust 0.169 in a pty (tests/e2e/test_tui_trust_rule.py):
it asks only inside a git work tree, and only when no trust level is recorded for the
directory itself, for its repository's root or (a linked worktree) for its main repository's
root. A level recorded for any other ancestor does not count (a trusted parent of a
repository is asked about again), and neither do the command line's `-s`, `-a`, `-c`,
`--dangerously-bypass-approvals-and-sandbox`: the question comes with them too. Outside a
git work tree it never asks. `codex resume` and `codex fork` ask as a plain launch does. The
question offers trust (recorded) or leave (nothing recorded), no "do not trust" answer
(tests/e2e/test_tui_trust_leave.py).

A folder recorded `untrusted` (git or not) gets, on every launch, a screen that only offers to
open it restricted or to leave; opening records nothing (0.169's "Open restricted",
tests/fixtures/tui_policies_0169.json). Its session runs workspace-write under `untrusted`
(codex_core.config.resolve.default_policies).
"""

from __future__ import annotations

from pathlib import Path

from codex_core.config.types import ProjectConfig, _main_worktree_root
from codex_core.frontend.git import find_git_root


def recorded_trust(projects: dict[str, ProjectConfig], cwd: Path) -> str | None:
    """The trust level 0.169 reads for `cwd`: its own entry, its repository root's, or its
    main worktree's."""
    start = cwd.expanduser().absolute()
    candidates = [start]
    root = find_git_root(start)
    if root is not None:
        candidates.append(root)
        main = _main_worktree_root([start, *start.parents])
        if main is not None:
            candidates.append(main)
    for candidate in candidates:
        entry = projects.get(str(candidate))
        if entry is not None and entry.trust_level is not None:
            return entry.trust_level
    return None


def opens_restricted(projects: dict[str, ProjectConfig], cwd: Path) -> bool:
    """Whether the TUI shows the open-restricted screen: `cwd` is recorded untrusted."""
    return recorded_trust(projects, cwd) == "untrusted"


def asks_trust(projects: dict[str, ProjectConfig], cwd: Path, is_git_repo: bool) -> bool:
    """Whether the TUI asks about `cwd` before its session starts (flags do not matter)."""
    return is_git_repo and recorded_trust(projects, cwd) is None
