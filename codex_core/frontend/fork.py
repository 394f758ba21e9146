"""Forking a recorded session for `codex fork` and `codex exec fork`: the newest interactive
session, and the copy the new thread continues in."""

from __future__ import annotations

from pathlib import Path

from codex_core.frontend.sessions import SessionNotFoundError


def fork_session(codex_home: Path, path: Path) -> tuple[Path, str]:
    """Copy the whole session at `path` into a new one; its rollout and the original's id.

    The copy holds the history itself (0.169's forks point back into the original's file
    instead), so deleting or archiving the original never breaks it.

    Raises:
        OSError: The session cannot be read or the copy written.
    """
    from codex_core.rollout import fork_rollout
    from codex_core.rollout.layout import read_meta

    meta = read_meta(path)
    original = str(meta.get("id") or meta.get("session_id") or "")
    return fork_rollout(codex_home, path, None), original


def last_interactive_session(codex_home: Path, *, cwd: Path | None) -> Path:
    """The newest session that was not a `codex exec` run, as `codex fork --last` picks.

    Raises:
        SessionNotFoundError: There is none (in `cwd`, unless None).
    """
    from codex_core.rollout import list_sessions
    from codex_core.rollout.layout import read_meta

    cursor: str | None = None
    while True:
        page = list_sessions(
            codex_home, page_size=50, cursor=cursor, cwd=None if cwd is None else str(cwd)
        )
        for item in page.items:
            try:
                source = read_meta(Path(item.path)).get("source")
            except OSError:
                continue
            if source != "exec":
                return Path(item.path)
        cursor = page.next_cursor
        if cursor is None:
            where = "" if cwd is None else " in this directory (pass --all for every directory)"
            raise SessionNotFoundError(f"no interactive session to fork{where}")
