"""Pending approval requests keyed by call id; answered by `exec_approval` / `patch_approval` ops."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from codex_core.protocol import (
    ApplyPatchApprovalRequestEvent,
    ApprovalDecisionEvent,
    EventMsg,
    ExecApprovalRequestEvent,
    FileChange,
    ReviewDecision,
)

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

    async def ask_exec(
        self,
        emit: Callable[[EventMsg], None],
        call_id: str,
        command: list[str],
        cwd: Path,
        reason: str | None,
        prefix: list[str] | None,
    ) -> ReviewDecision:
        """Ask whether a command may run; the decision is also recorded as an event."""
        future = self.open(call_id)
        emit(
            ExecApprovalRequestEvent(
                call_id=call_id,
                command=command,
                cwd=str(cwd),
                reason=reason,
                suggested_prefix=prefix,
            )
        )
        decision = await future
        emit(
            ApprovalDecisionEvent(call_id=call_id, kind="exec", decision=decision, command=command)
        )
        return decision

    async def ask_patch(
        self,
        emit: Callable[[EventMsg], None],
        call_id: str,
        changes: dict[str, FileChange],
        reason: str | None,
        grant_root: str | None,
    ) -> ReviewDecision:
        """Ask whether a patch may be applied; the decision is also recorded as an event."""
        future = self.open(call_id)
        emit(
            ApplyPatchApprovalRequestEvent(
                call_id=call_id, changes=changes, reason=reason, grant_root=grant_root
            )
        )
        decision = await future
        emit(ApprovalDecisionEvent(call_id=call_id, kind="patch", decision=decision))
        return decision
