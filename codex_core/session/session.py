"""A Session: submission and event queues around the kernel, with approvals and the rollout."""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any, assert_never

from codex_core import __version__
from codex_core.client.model_client import HttpPool
from codex_core.config import Config, create_env
from codex_core.exec.shell_snapshot import ShellSnapshot
from codex_core.execpolicy import RuleSet, load_rules
from codex_core.protocol import (
    AddToHistoryOp,
    CleanBackgroundTerminalsOp,
    CompactOp,
    ElicitationRequestEvent,
    ErrorEvent,
    Event,
    EventMsg,
    ExecApprovalOp,
    GetHistoryEntryRequestOp,
    GetHistoryEntryResponseEvent,
    InterruptOp,
    ListBackgroundTerminalsOp,
    ListMcpToolsOp,
    Op,
    OverrideTurnContextOp,
    PatchApprovalOp,
    ResolveElicitationOp,
    ResponseItem,
    ReviewOp,
    SessionConfiguredEvent,
    ShutdownCompleteEvent,
    ShutdownOp,
    SteerInputOp,
    Submission,
    TaskCompleteEvent,
    TerminateBackgroundTerminalOp,
    TurnAbortedEvent,
    UndoOp,
    UserInputOp,
    UserTurnOp,
    WarningEvent,
)
from codex_core.session.approvals import PendingApprovals
from codex_core.session.background_terminals import handle_background_terminal_op
from codex_core.session.host import ClientFactory
from codex_core.session.model_clients import default_client_factory, start_mcp_servers
from codex_core.session.op_handlers import list_mcp_tools, remember_prefix, undo_last_turn
from codex_core.session.skills_context import SessionSkills
from codex_core.session.storage import SessionStorage
from codex_core.session.teardown import release
from codex_core.session.turns import TurnRunner
from codex_core.session.undo import UndoStack
from codex_core.session.usage import TokenAccounting
from codex_core.tls_context import prepare_for as prepare_tls
from codex_core.tools.context import SessionApprovals, ToolContext
from codex_core.turn_context import TurnContext
from codex_core.unified_exec.manager import ProcessManager

if TYPE_CHECKING:
    from codex_core.hooks.engine import SessionHooks
    from codex_core.mcp.elicitation import PendingElicitations
    from codex_core.mcp.manager import McpConnectionManager

log = logging.getLogger(__name__)

EPILOGUE_TIMEOUT_S = 5.0
"""How long shutdown waits for a turn that already ended to finish writing its rollout."""


class Session(TokenAccounting):
    """One conversation. Frontends only `submit(Op)` and read `next_event()`."""

    def __init__(
        self,
        config: Config,
        *,
        session_id: str,
        turn: TurnContext,
        history: list[ResponseItem],
        storage: SessionStorage,
        client_factory: ClientFactory = default_client_factory,
    ) -> None:
        self.config = config
        self.session_id = session_id
        self.turn = turn
        self.history = history
        self.storage = storage
        self.http_pool = HttpPool()
        """The model clients' connections, kept across turns (closed at shutdown)."""
        if client_factory is default_client_factory:
            client_factory = functools.partial(default_client_factory, pool=self.http_pool)
        self.client_factory = client_factory
        self._events: asyncio.Queue[Event] = asyncio.Queue()
        self._ops: asyncio.Queue[Submission] = asyncio.Queue()
        self._ids = itertools.count(1)
        self.approvals = PendingApprovals()
        self.session_approvals = SessionApprovals()
        self._queued_turns: list[Submission] = []
        self._active: asyncio.Task[None] | None = None
        self._turn_ended = False
        self._init_usage()
        self.rules: RuleSet = load_rules(config.codex_home)
        self.tool_ctx: ToolContext | None = None
        self.context_turn: TurnContext | None = turn if history else None
        self._loop_task: asyncio.Task[None] | None = None
        self._runner = TurnRunner(self)
        self.mcp: McpConnectionManager | None = None
        self.elicitations: PendingElicitations | None = None
        self._active_sub: str | None = None
        self.undo = UndoStack(session_id)
        """Work-tree snapshots taken before each turn, for `/undo`."""
        self.unified_exec = ProcessManager()
        """Commands started with `exec_command`: kept across turns, killed at shutdown."""
        self.shell_snapshot = ShellSnapshot(create_env(config.shell_environment_policy))
        self.skills = SessionSkills(config)
        self.hooks: SessionHooks | None = None
        """The login shell, run once in the background; `bash -lc` commands replay it."""

    @property
    def rollout_path(self) -> Path | None:
        """Where this session is recorded, if recording works."""
        return self.storage.path

    @classmethod
    async def create(
        cls,
        config: Config,
        *,
        source: str = "cli",
        resume_path: Path | None = None,
        client_factory: ClientFactory = default_client_factory,
    ) -> Session:
        """Start a new session (or resume one from its rollout) and emit `session_configured`."""
        # An https provider's CA bundle loads on the other core while the session starts.
        prepare_tls(config.model_provider.resolved_base_url())
        turn = TurnContext(
            cwd=config.cwd,
            model=config.model,
            approval_policy=config.approval_policy,
            sandbox_policy=config.sandbox_policy,
            granular=config.granular,
            effort=config.model_reasoning_effort,
            summary=config.model_reasoning_summary,
            shell_timeout_ms=config.shell_timeout_ms,
        )
        if resume_path is not None:
            storage, restored = SessionStorage.resume(config, resume_path)
            session_id, history = restored.session_id, restored.history
            past_events: list[dict[str, Any]] | None = restored.events
        else:
            session_id = str(uuid.uuid4())
            storage = SessionStorage.create(config, session_id, source)
            history, past_events = [], None
        session = cls(
            config,
            session_id=session_id,
            turn=turn,
            history=history,
            storage=storage,
            client_factory=client_factory,
        )
        if past_events:
            session.restore_usage(past_events)
        session._start(past_events)
        return session

    def _start(self, past_events: list[dict[str, Any]] | None) -> None:
        log_id, count = self.storage.history_metadata()
        self.emit(
            "0",
            SessionConfiguredEvent(
                session_id=self.session_id,
                model=self.turn.model,
                model_provider_id=self.config.model_provider_id,
                reasoning_effort=self.turn.effort,
                history_log_id=log_id,
                history_entry_count=count,
                rollout_path=str(self.storage.path) if self.storage.path else None,
                cwd=str(self.turn.cwd),
                approval_policy=self.turn.approval_policy,
                sandbox_policy=self.turn.sandbox_policy,
                initial_messages=past_events,
            ),
        )
        for warning in [
            *self.config.warnings,
            *self.rules.warnings,
            *self.storage.drain_warnings(),
        ]:
            self.emit("0", WarningEvent(message=warning))
        self._start_mcp()
        self.shell_snapshot.start()
        self._loop_task = asyncio.get_running_loop().create_task(self._submission_loop())

    def _start_mcp(self) -> None:
        started = start_mcp_servers(
            self.config,
            on_failure=lambda text: self.emit("0", WarningEvent(message=text)),
            emit_elicitation=self._emit_elicitation,
        )
        if started is not None:
            self.elicitations, self.mcp = started
            # `granular` with `mcp_elicitations = false`: a server's question is declined unasked.
            self.elicitations.declined = lambda: self.turn.refuses_unasked("mcp_elicitations")

    def _emit_elicitation(self, msg: EventMsg) -> None:
        """A server's question, tied to the running turn when there is one."""
        running = self._active is not None and not self._active.done()
        sub_id = self._active_sub if running and self._active_sub else "0"
        if isinstance(msg, ElicitationRequestEvent) and running:
            msg = msg.model_copy(update={"turn_id": sub_id})
        self.emit(sub_id, msg)

    # ------------------------------------------------------------------ frontend API

    async def submit(self, op: Op) -> str:
        """Queue an op; returns the submission id its events will carry."""
        sub_id = str(next(self._ids))
        # Typed already: validating would build the whole Op union's validator first.
        await self._ops.put(Submission.model_construct(id=sub_id, op=op))
        return sub_id

    async def next_event(self) -> Event:
        """The next event, waiting if none is ready."""
        return await self._events.get()

    # ------------------------------------------------------------------ internals

    def emit(self, sub_id: str, msg: EventMsg) -> None:
        """Queue an event for the frontend and record it."""
        if isinstance(msg, TaskCompleteEvent | TurnAbortedEvent):
            self._turn_ended = True  # only its epilogue (flush, index) is left to run
        if isinstance(msg, TurnAbortedEvent) and msg.reason == "interrupted":
            self._record_turn_aborted()
        # `msg` is a validated event: checking it against the EventMsg union again would
        # build that union's validator (~25 ms) before the first model request.
        event = Event.model_construct(id=sub_id, msg=msg)
        self._events.put_nowait(event)
        self.storage.record_event(event)
        for warning in self.storage.drain_warnings():
            warned = Event.model_construct(id=sub_id, msg=WarningEvent(message=warning))
            self._events.put_nowait(warned)

    def _record_turn_aborted(self) -> None:
        """Tell the model, from its next request on, that the user cut the turn off (turn
        interrupt, ACP cancel, Ctrl+C, Esc on an approval), as Codex 0.169 records it."""
        from codex_core.session.inputs import turn_aborted_message

        marker = turn_aborted_message()
        self.history.append(marker)
        self.storage.record_items([marker])

    async def _submission_loop(self) -> None:
        while True:
            sub = await self._ops.get()
            try:
                if await self._handle(sub):
                    return
            except Exception as err:  # a bug must not kill the session silently
                log.exception("op %s failed", sub.op.type)
                self.emit(sub.id, ErrorEvent(message=f"internal error: {err}"))

    async def _handle(self, sub: Submission) -> bool:
        op = sub.op
        match op:
            case UserTurnOp() | UserInputOp():
                self._handle_input(sub)
            case SteerInputOp():
                if not self._runner.steered.push(sub.id, op.items):
                    self._handle_input(Submission(id=sub.id, op=UserInputOp(items=op.items)))
            case InterruptOp():
                self._queued_turns.clear()
                self._runner.steered.close()  # input that has not joined yet is dropped
                if self._active is not None and not self._active.done():
                    self._active.cancel()
                if self.elicitations is not None:
                    self.elicitations.cancel_all()
            case ReviewOp():
                self._handle_input(sub)
            case ResolveElicitationOp():
                if self.elicitations is not None:
                    self.elicitations.resolve(
                        op.server_name, op.request_id, op.decision, op.content
                    )
            case ExecApprovalOp():
                self.approvals.resolve(op.id, op.decision)
                if op.remember_prefix and op.decision in ("approved", "approved_for_session"):
                    remember_prefix(self, sub.id, op.remember_prefix)
            case PatchApprovalOp():
                self.approvals.resolve(op.id, op.decision)
            case OverrideTurnContextOp():
                self.turn = self.turn_with(op)
            case AddToHistoryOp():
                self.storage.append_history(self.session_id, op.text)
            case GetHistoryEntryRequestOp():
                entry = self.storage.lookup_history(op.log_id, op.offset)
                self.emit(
                    sub.id,
                    GetHistoryEntryResponseEvent(offset=op.offset, log_id=op.log_id, entry=entry),
                )
            case CompactOp():
                if self._active is not None and not self._active.done():
                    self._queued_turns.append(sub)
                else:
                    self._start_turn(sub)
            case ListMcpToolsOp():
                list_mcp_tools(self, sub.id)
            case UndoOp():
                await undo_last_turn(self, sub.id, turn_running=self.turn_running())
            case (
                ListBackgroundTerminalsOp()
                | TerminateBackgroundTerminalOp()
                | CleanBackgroundTerminalsOp()
            ):
                handle_background_terminal_op(self.unified_exec, op, lambda m: self.emit(sub.id, m))
            case ShutdownOp():
                await self._shutdown(sub.id)
                return True
            case _:
                assert_never(op)
        return False

    def turn_running(self) -> bool:
        """Whether a turn (or a compaction, a review) is running now."""
        return self._active is not None and not self._active.done()

    def _handle_input(self, sub: Submission) -> None:
        if self._active is not None and not self._active.done():
            self._queued_turns.append(sub)
        else:
            self._start_turn(sub)

    def turn_with(self, op: UserTurnOp | OverrideTurnContextOp) -> TurnContext:
        """The turn context with the fields `op` sets."""
        return self.turn.with_changes(
            cwd=Path(op.cwd) if op.cwd else None,
            approval_policy=op.approval_policy,
            granular=op.granular,
            sandbox_policy=op.sandbox_policy,
            model=op.model,
            effort=op.effort,
            summary=op.summary,
        )

    def _start_turn(self, sub: Submission) -> None:
        runner = self._runner
        if not isinstance(sub.op, CompactOp):
            runner.steered.start()  # a steer sent right after the turn's op joins it
        if isinstance(sub.op, CompactOp):
            work = runner.run_compact(sub)
        elif isinstance(sub.op, ReviewOp):
            from codex_core.session.review import run_review

            work = run_review(self, runner, sub)
        else:
            work = runner.run_turn(sub)
        self._turn_ended = False
        self._active_sub = sub.id
        self._active = asyncio.get_running_loop().create_task(work)
        self._active.add_done_callback(lambda _task: self._turn_finished())

    def _turn_finished(self) -> None:
        # Input steered after the turn's last request starts the next turn, before the queue.
        left = [
            Submission(id=i, op=UserInputOp(items=items))
            for i, items in self._runner.steered.close()
        ]
        self._queued_turns[:0] = left
        if self._queued_turns:
            self._start_turn(self._queued_turns.pop(0))

    async def _shutdown(self, sub_id: str) -> None:
        self._queued_turns.clear()
        # Stopping a running turn means the user is waiting (Ctrl+C in `codex exec`).
        hurry = self._active is not None and not self._active.done() and not self._turn_ended
        if self._active is not None and not self._active.done():
            # A turn that already reported its end is only flushing its rollout: let it
            # finish (briefly) rather than lose its last lines; a running one is stopped.
            if self._turn_ended:
                await asyncio.wait({self._active}, timeout=EPILOGUE_TIMEOUT_S)
            if not self._active.done():
                self._active.cancel()
            try:
                await self._active
            except asyncio.CancelledError:
                pass
        await release(self, sub_id, hurry=hurry)
        self.emit(sub_id, ShutdownCompleteEvent())


__all__ = ["Session", "__version__"]
