"""The TUI's session on an app-server, as a CoreClient: a `codex app-server` child on stdio
(the local TUI) or a running server at `--remote ADDR` (a websocket, TCP or unix socket).

The same client either way: the handshake, then `thread/start` or `thread/resume`; ops become
requests (`turn/start`, `turn/steer`, `turn/interrupt`, `thread/compact/start`,
`review/start`, `mcpServerStatus/list` and the codex extensions in `app_server_ops`) and
approval answers become responses to the server's requests; what the server sends becomes
the cells' item notices through `wire_items`, one step. If the server goes away,
`next_notices` fails with one sentence and the app shows it (a remote one is first waited
for, as 0.169 does: the requests, the read loop and the reconnects are `app_server_link`'s).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import subprocess
from dataclasses import replace
from typing import Any, assert_never

from codex_core.protocol import (
    AddToHistoryOp,
    CleanBackgroundTerminalsOp,
    CompactOp,
    ExecApprovalOp,
    GetHistoryEntryRequestOp,
    InterruptOp,
    ListBackgroundTerminalsOp,
    ListMcpToolsOp,
    Op,
    OverrideTurnContextOp,
    PatchApprovalOp,
    ResolveElicitationOp,
    ReviewOp,
    ShutdownOp,
    SteerInputOp,
    TerminateBackgroundTerminalOp,
    UndoOp,
    UserInputOp,
    UserTurnOp,
)
from codex_core.servers.app_server.remote import RemoteAddress, RemoteError, RpcFailure
from codex_tui.app.app_server_connection import (
    CALL_TIMEOUT,
    INITIALIZE,
    Connection,
    early_id,
    open_connection,
)
from codex_tui.app.app_server_link import AppServerLink
from codex_tui.app.app_server_ops import (
    approval_decision,
    elicitation_result,
    request_op,
    turn_overrides,
    wire_input,
)
from codex_tui.app.early_turn import Presend
from codex_tui.app.wire_items import TURN

log = logging.getLogger(__name__)


class AppServerCore(AppServerLink):
    """A CoreClient over one connection to an app-server (the link: `app_server_link`)."""

    def __init__(
        self, connection: Connection, address: RemoteAddress | None, token: str | None = None
    ) -> None:
        super().__init__(connection, address, token)
        self._submissions = itertools.count(1)
        self._overrides: dict[str, Any] = {}
        self._closer: asyncio.Future[None] | None = None
        self._early: str | None = None
        """The thread method written at spawn (`thread/start` or `thread/resume`) until its
        answer is read."""

    @classmethod
    async def connect(cls, address: RemoteAddress, token: str | None) -> AppServerCore:
        """Connect and shake hands (as `codex-tui`, with the experimental API).

        Raises:
            RemoteError: The server cannot be reached, refused the token or the handshake.
        """
        core = cls(await open_connection(address, token), address, token)
        await core.call("initialize", INITIALIZE)
        await core._send({"method": "initialized"})
        return core

    @classmethod
    async def start_child(
        cls,
        process: subprocess.Popen[bytes],
        log_path: str,
        early: str | None = None,
        *,
        already: bytes = b"",
        presend: Presend | None = None,
    ) -> AppServerCore:
        """Shake hands with a `codex app-server` child on its stdio (`app_server_process`);
        `early`: the handshake and this thread method (`thread/start` or `thread/resume`)
        were written at spawn (`early_requests`), only their answers are read here;
        `already`: the child's output read before (`early_turn`); `presend`: the requests
        written after the thread's answer (`early_turn`), whose answers are read when the
        same requests are made (`call`).

        Raises:
            RemoteError: The child exited or refused the handshake.
        """
        from codex_tui.app.app_server_process import StdioConnection

        connection = StdioConnection(process, log_path, already)
        await connection.open()
        core = cls(connection, None)
        core._early = early
        try:
            if early is not None:  # both answers may come before either is read
                for method in ("initialize", early):
                    core._answers[early_id(method)] = asyncio.get_running_loop().create_future()
                core.expect(presend or {})
                await core._result(early_id("initialize"), "initialize", CALL_TIMEOUT)
                return core
            await core.call("initialize", INITIALIZE)
            await core._send({"method": "initialized"})
        except RemoteError:
            await core._close()
            raise
        return core

    async def open_thread(
        self, thread_id: str | None, overrides: dict[str, Any] | None = None
    ) -> None:
        """Start a thread, or resume `thread_id`, with `overrides` (the wire's `model`,
        `cwd`, `approvalPolicy`, `sandbox`, …); its first notice is `ThreadOpened`.

        Raises:
            RemoteError: The server refused.
        """
        params = dict(overrides or {})
        method = "thread/start" if thread_id is None else "thread/resume"
        if self._early == method and not params:  # written at spawn with the handshake
            self._early = None
            response = await self._result(early_id(method), method, CALL_TIMEOUT)
        elif thread_id is None:
            response = await self.call("thread/start", params)
        else:
            response = await self.call("thread/resume", {**params, "threadId": thread_id})
        opened = self.wire.thread_opened(response)
        try:
            history = await self.call("history/metadata/read", {"threadId": self.wire.thread_id})
        except RpcFailure:  # a server without the extension: no ↑ recall of older messages
            history = {}
        recall = {
            "history_log_id": history.get("logId", 0),
            "history_entry_count": history.get("entryCount", 0),
        }
        self._push([replace(opened, **recall)])
        held, self._held = self._held, None
        for message in held or []:  # what the thread said while it was being opened
            self._take(message)

    async def open_child_thread(self, thread_id: str | None) -> None:
        """`open_thread` on a child server: a refusal is its message alone, and the child
        is told to end.

        Raises:
            RemoteError: The child refused (its message) or is gone.
        """
        try:
            await self.open_thread(thread_id)
        except RemoteError as err:
            await self._close()
            raise RemoteError(err.message if isinstance(err, RpcFailure) else str(err)) from None

    # ------------------------------------------------------------------ CoreClient

    async def submit(self, op: Op) -> str:
        """Send an op as the request (or response) it is on the wire; returns a submission
        id, or "" when it could not be sent (a line in the transcript says why)."""
        sub_id = str(next(self._submissions))
        try:
            await self._submit(op)
        except RemoteError as err:
            self._push(self.wire.items.error(str(err)))
            return ""
        return sub_id

    async def _submit(self, op: Op) -> None:
        thread = self.wire.thread_id
        match op:
            case UserInputOp() | UserTurnOp():
                params = {"threadId": thread, "input": wire_input(op.items), **self._overrides}
                await self.call("turn/start", params)
            case SteerInputOp():
                if self.wire.turn_id is None:
                    await self._submit(UserInputOp(items=op.items))
                    return
                steer = {"expectedTurnId": self.wire.turn_id, "input": wire_input(op.items)}
                await self.call("turn/steer", {"threadId": thread, **steer})
            case InterruptOp():
                if self.wire.turn_id is not None:
                    await self.call(
                        "turn/interrupt", {"threadId": thread, "turnId": self.wire.turn_id}
                    )
            case ExecApprovalOp() | PatchApprovalOp():
                await self._answer(op)
            case ResolveElicitationOp():
                request_id = self.wire.elicitations.pop(op.request_id, None)
                if request_id is not None:
                    await self._send({"id": request_id, "result": elicitation_result(op)})
            case CompactOp():
                await self.call("thread/compact/start", {"threadId": thread})
            case OverrideTurnContextOp():  # kept for the next `turn/start` (they stick there)
                self._overrides.update(turn_overrides(op))
            case ShutdownOp():  # the session's end is awaited as its last event
                self._closer = asyncio.ensure_future(self._close())
            case (
                ListMcpToolsOp()
                | UndoOp()
                | ReviewOp()
                | ListBackgroundTerminalsOp()
                | TerminateBackgroundTerminalOp()
                | CleanBackgroundTerminalsOp()
                | GetHistoryEntryRequestOp()
                | AddToHistoryOp()
            ):
                try:
                    answer = await request_op(self, thread, op, TURN)
                except RpcFailure as err:
                    if isinstance(op, AddToHistoryOp):  # a server without the extension (0.169)
                        log.info("history/append: %s", err.message)
                        return
                    self._push(self.wire.items.error(err.message))
                    return
                if answer is not None:
                    self._push([answer])
            case _ as unreachable:
                assert_never(unreachable)

    async def _answer(self, op: ExecApprovalOp | PatchApprovalOp) -> None:
        found = self.wire.answered(op.id, op.decision)
        if found is None:
            return  # answered elsewhere meanwhile: the first answer won
        asked, decided = found
        result = {"decision": approval_decision(op)}
        await self._send({"id": asked.request_id, "result": result})
        self._push(decided)
