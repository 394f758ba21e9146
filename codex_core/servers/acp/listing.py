"""ACP `session/list`: recorded sessions (rollouts) as `SessionInfo`s, newest first."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import acp
from acp.schema import ListSessionsResponse, SessionInfo

from codex_core.frontend.sessions import thread_names_by_id
from codex_core.rollout import list_sessions
from codex_core.rollout.listing import InvalidCursorError

PAGE_SIZE = 50


def session_page(codex_home: Path, cwd: str | None, cursor: str | None) -> ListSessionsResponse:
    """One page of sessions (of `cwd` when given); `nextCursor` when more follow.

    Raises:
        acp.RequestError: The cursor is not one this agent handed out.
    """
    try:
        page = list_sessions(codex_home, page_size=PAGE_SIZE, cursor=cursor, cwd=cwd)
    except InvalidCursorError as err:
        raise acp.RequestError.invalid_params({"cursor": str(err)}) from None
    names = thread_names_by_id(codex_home)
    sessions = [
        SessionInfo(
            session_id=item.id,
            cwd=item.cwd or "/",
            title=names.get(item.id) or item.preview or None,
            updated_at=datetime.fromtimestamp(item.updated_at, UTC)
            .isoformat(timespec="seconds")
            .replace("+00:00", "Z"),
        )
        for item in page.items
    ]
    return ListSessionsResponse(sessions=sessions, next_cursor=page.next_cursor)
