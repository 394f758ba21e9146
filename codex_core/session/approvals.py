"""Pending approval requests keyed by call id; answered by `exec_approval` / `patch_approval` ops."""

from __future__ import annotations

import asyncio
import logging

from codex_core.protocol import ReviewDecision

log = logging.getLogger(__name__)


class PendingApprovals:
    """Futures the running turn awaits; several may be pending at once."""

    def __init__(self) -> None:
        self._pending: dict[str, asyncio.Future[ReviewDecision]] = {}

    def open(self, call_id: str) -> asyncio.Future[ReviewDecision]:
        """Register a request and return the future its answer resolves."""
        future: asyncio.Future[ReviewDecision] = asyncio.get_running_loop().create_future()
        self._pending[call_id] = future
        return future

    def resolve(self, call_id: str, decision: ReviewDecision) -> bool:
        """Answer the request for `call_id`; False if nothing waits for it."""
        future = self._pending.pop(call_id, None)
        if future is None or future.done():
            log.warning("approval for unknown or finished call %s ignored", call_id)
            return False
        future.set_result(decision)
        return True

    def discard(self, call_id: str) -> None:
        """Forget a request (its turn ended)."""
        self._pending.pop(call_id, None)

    def cancel_all(self) -> None:
        """Drop every pending request (interrupt or shutdown)."""
        for future in self._pending.values():
            if not future.done():
                future.cancel()
        self._pending.clear()
