"""MCP `elicitation/create`: a server's question becomes an event, the user's answer an op.

Each request gets a session-unique id; the server's call waits on a future that the
`resolve_elicitation` op (or an interrupt, or shutdown: `cancel`) completes.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable
from typing import Any

from mcp import types

from codex_core.protocol import ElicitationAction, ElicitationRequestEvent, EventMsg

log = logging.getLogger(__name__)


class PendingElicitations:
    """The questions servers are waiting on, keyed by (server, id)."""

    def __init__(self, emit: Callable[[EventMsg], None]) -> None:
        self._emit = emit
        self._ids = itertools.count(1)
        self._pending: dict[tuple[str, str], asyncio.Future[types.ElicitResult]] = {}
        self.declined: Callable[[], bool] = lambda: False
        """Whether questions are declined without asking anyone (the session sets it:
        `granular` with `mcp_elicitations = false`)."""

    async def ask(self, server: str, params: types.ElicitRequestParams) -> types.ElicitResult:
        """Emit the request and wait for the user's answer (declined at once when
        `declined()` says so)."""
        if self.declined():
            return types.ElicitResult(action="decline")
        request_id = str(next(self._ids))
        future: asyncio.Future[types.ElicitResult] = asyncio.get_running_loop().create_future()
        self._pending[(server, request_id)] = future
        if isinstance(params, types.ElicitRequestURLParams):
            event = ElicitationRequestEvent(
                server_name=server,
                id=request_id,
                message=params.message,
                mode="url",
                url=params.url,
                elicitation_id=params.elicitationId,
            )
        else:
            event = ElicitationRequestEvent(
                server_name=server,
                id=request_id,
                message=params.message,
                requested_schema=dict(params.requestedSchema),
            )
        self._emit(event)
        try:
            return await future
        finally:
            self._pending.pop((server, request_id), None)

    def resolve(
        self,
        server: str,
        request_id: str,
        action: ElicitationAction,
        content: dict[str, Any] | None,
    ) -> bool:
        """Answer one request; False when nothing waits for it."""
        future = self._pending.pop((server, request_id), None)
        if future is None or future.done():
            log.warning("answer to unknown elicitation %s/%s ignored", server, request_id)
            return False
        values = content if action == "accept" else None
        future.set_result(types.ElicitResult(action=action, content=values))
        return True

    def cancel_all(self) -> None:
        """Answer `cancel` to every waiting server (interrupt, shutdown)."""
        for future in self._pending.values():
            if not future.done():
                future.set_result(types.ElicitResult(action="cancel"))
        self._pending.clear()
