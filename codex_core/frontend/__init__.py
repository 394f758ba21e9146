"""The frontend kit: what every frontend (TUI, exec, app-server, ACP) asks the core once.

- `find_codex_home` / `CodexHomeError`: where CODEX_HOME is, with a one-line error.
- `find_git_root`, `project_root`, `GitRootCache`: the git work tree of a directory.
- `last_session`, `find_session`, `thread_name_index`, `SessionLookup`,
  `SessionNotFoundError`, `NotASessionError`: which recorded session `--last`, an id, a name or a path means.
- `display_command`: a command as shown to the user.
- `relative_age`: `2 minutes ago`.
- `approval_op`: the op answering an approval request.

Names load on first use: `codex_core.frontend.home` is standard-library only and cheap,
session lookup pulls in the rollout package and approvals the protocol models.
"""

from __future__ import annotations

from codex_core.lazy import lazy_attributes

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: `codex sandbox` imports this package
if TYPE_CHECKING:
    from codex_core.frontend.approvals import ApprovalRequest, approval_op
    from codex_core.frontend.commands import display_command
    from codex_core.frontend.git import GitRootCache, find_git_root, project_root
    from codex_core.frontend.home import CodexHomeError, find_codex_home
    from codex_core.frontend.relative_time import relative_age
    from codex_core.frontend.sessions import (
        NotASessionError,
        SessionLookup,
        SessionNotFoundError,
        find_session,
        last_session,
        thread_name_index,
    )

_MODULE_OF = {
    "ApprovalRequest": "approvals",
    "approval_op": "approvals",
    "display_command": "commands",
    "GitRootCache": "git",
    "find_git_root": "git",
    "project_root": "git",
    "CodexHomeError": "home",
    "find_codex_home": "home",
    "relative_age": "relative_time",
    "NotASessionError": "sessions",
    "SessionLookup": "sessions",
    "SessionNotFoundError": "sessions",
    "find_session": "sessions",
    "last_session": "sessions",
    "thread_name_index": "sessions",
}

__all__ = [
    "ApprovalRequest",
    "CodexHomeError",
    "GitRootCache",
    "NotASessionError",
    "SessionLookup",
    "SessionNotFoundError",
    "approval_op",
    "display_command",
    "find_codex_home",
    "find_git_root",
    "find_session",
    "last_session",
    "project_root",
    "relative_age",
    "thread_name_index",
]


__getattr__ = lazy_attributes(__name__, _MODULE_OF, globals())
