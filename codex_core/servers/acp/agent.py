"""The ACP agent: sessions over `codex_core.session.Session`, prompts as turns, approvals as
`session/request_permission`."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import acp
from acp.helpers import update_current_mode
from acp.schema import (
    AgentCapabilities,
    AllowedOutcome,
    Implementation,
    McpCapabilities,
    PromptCapabilities,
    SessionCapabilities,
    SessionCloseCapabilities,
    SessionListCapabilities,
    SessionMode,
    SessionModeState,
    SessionResumeCapabilities,
    StopReason,
)

from codex_core import __version__
from codex_core.config import Config, ConfigOverrides, McpServerConfig
from codex_core.items import notices as n
from codex_core.protocol import (
    ExecApprovalOp,
    ImageInput,
    InputItem,
    InterruptOp,
    OverrideTurnContextOp,
    PatchApprovalOp,
    ResolveElicitationOp,
    ReviewDecision,
    ShutdownOp,
    TextInput,
    UserTurnOp,
)
from codex_core.servers.acp.modes import BY_ID, PRESETS, mode_of
from codex_core.servers.acp.permission import DECISIONS, PERMISSION_OPTIONS, permission_tool_call
from codex_core.servers.acp.replay import recorded_patches, replay
from codex_core.servers.acp.updates import UpdateBuilder
from codex_core.session import Session

log = logging.getLogger(__name__)

SESSION_SOURCE = "vscode"


@dataclass
class AcpSession:
    """One ACP session: the core session, its event pump and the prompt waiting on it."""

    session: Session
    config: Config
    mode: str
    builder: UpdateBuilder = field(default_factory=UpdateBuilder)
    turn_done: asyncio.Future[StopReason] | None = None
    pump: asyncio.Task[None] | None = None


def prompt_items(blocks: list[Any]) -> list[InputItem]:
    """ACP content blocks as core input: text, images, resource links and embedded text."""
    items: list[InputItem] = []
    for block in blocks:
        kind = getattr(block, "type", None)
        if kind == "text":
            items.append(TextInput(text=block.text))
        elif kind == "image":
            url = block.uri or f"data:{block.mime_type};base64,{block.data}"
            items.append(ImageInput(image_url=url))
        elif kind == "resource_link":
            items.append(TextInput(text=f"@{block.uri.removeprefix('file://')}"))
        elif kind == "resource":
            resource = block.resource
            text = getattr(resource, "text", None)
            if text is not None:
                items.append(TextInput(text=f'<context ref="{resource.uri}">\n{text}\n</context>'))
    return items


def _mcp_config(server: Any) -> tuple[str, McpServerConfig] | None:
    """An MCP server handed by the client, as a config entry (stdio or HTTP)."""
    name = getattr(server, "name", None)
    if not name:
        return None
    if getattr(server, "command", None):
        env = {var.name: var.value for var in getattr(server, "env", None) or []}
        return name, McpServerConfig(command=server.command, args=list(server.args or []), env=env)
    if getattr(server, "url", None):
        headers = {h.name: h.value for h in getattr(server, "headers", None) or []}
        return name, McpServerConfig(url=server.url, http_headers=headers or None)
    return None


class CodexAgent:
    """An `acp.Agent` running Codex sessions."""

    def __init__(self, cli_overrides: list[str]) -> None:
        self.cli_overrides = cli_overrides
        self._conn: Any = None
        self._sessions: dict[str, AcpSession] = {}

    def on_connect(self, conn: Any) -> None:
        """Remember the client connection (updates and permission requests go there)."""
        self._conn = conn

    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: Any = None,
        client_info: Any = None,
        **_: Any,
    ) -> acp.InitializeResponse:
        """Capabilities: load session, images, embedded context."""
        return acp.InitializeResponse(
            protocol_version=acp.PROTOCOL_VERSION,
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(image=True, embedded_context=True),
                mcp_capabilities=McpCapabilities(http=True),
                session_capabilities=SessionCapabilities(
                    list=SessionListCapabilities(),
                    resume=SessionResumeCapabilities(),
                    close=SessionCloseCapabilities(),
                ),
            ),
            agent_info=Implementation(name="codex", title="Codex", version=__version__),
        )

    async def authenticate(self, method_id: str, **_: Any) -> None:
        """Nothing to do: the API key comes from CODEX_HOME or the environment."""
        return None

    def _config(self, cwd: str, mcp_servers: list[Any] | None) -> Config:
        from codex_core.config import load_config

        config = load_config(ConfigOverrides(cwd=Path(cwd)), self.cli_overrides)
        for server in mcp_servers or []:
            entry = _mcp_config(server)
            if entry is not None:
                config.mcp_servers[entry[0]] = entry[1]
        return config

    async def _open(
        self, config: Config, resume: Path | None
    ) -> tuple[str, AcpSession, n.ThreadStarted]:
        """Start (or resume) a session; its first notice says how it runs and what came
        before (`initial_messages`)."""
        session = await Session.create(config, source=SESSION_SOURCE, resume_path=resume)
        mode = mode_of(config.approval_policy, config.sandbox_policy.mode)
        state = AcpSession(session, config, mode)
        first = state.builder.projection.feed(await session.next_event())
        started = first[0] if first else None
        assert isinstance(started, n.ThreadStarted), started
        self._sessions[session.session_id] = state
        return session.session_id, state, started

    def _modes(self, current: str) -> SessionModeState:
        return SessionModeState(
            current_mode_id=current,
            available_modes=[
                SessionMode(id=p.id, name=p.name, description=p.description) for p in PRESETS
            ],
        )

    async def new_session(
        self, cwd: str, mcp_servers: list[Any] | None = None, **_: Any
    ) -> acp.NewSessionResponse:
        """A new Codex session in `cwd`, recorded as an ordinary rollout."""
        session_id, state, _configured = await self._open(self._config(cwd, mcp_servers), None)
        state.pump = asyncio.get_running_loop().create_task(self._pump(session_id, state))
        return acp.NewSessionResponse(session_id=session_id, modes=self._modes(state.mode))

    async def load_session(
        self, cwd: str, session_id: str, mcp_servers: list[Any] | None = None, **_: Any
    ) -> acp.LoadSessionResponse:
        """Resume a recorded session and replay its conversation as updates."""
        from codex_core.frontend import NotASessionError, SessionNotFoundError, find_session

        config = self._config(cwd, mcp_servers)
        try:
            path = find_session(config.codex_home, session_id).path
        except (SessionNotFoundError, NotASessionError) as err:
            raise acp.RequestError.resource_not_found(str(err)) from None
        loaded_id, state, configured = await self._open(config, path)
        patches = recorded_patches(path)
        for update in replay(list(configured.initial_messages), patches):
            await self._conn.session_update(loaded_id, update)
        state.pump = asyncio.get_running_loop().create_task(self._pump(loaded_id, state))
        return acp.LoadSessionResponse(modes=self._modes(state.mode))

    async def list_sessions(
        self, cwd: str | None = None, cursor: str | None = None, **_: Any
    ) -> acp.schema.ListSessionsResponse:
        """Recorded sessions, newest first (of `cwd` when given), 50 a page."""
        from codex_core.servers.acp.listing import session_page

        codex_home = self._config(cwd or str(Path.cwd()), None).codex_home
        return session_page(codex_home, cwd, cursor)

    async def resume_session(
        self, session_id: str, cwd: str, mcp_servers: list[Any] | None = None, **_: Any
    ) -> acp.schema.ResumeSessionResponse:
        """Continue a recorded session without replaying it (or the one already open)."""
        from codex_core.frontend import NotASessionError, SessionNotFoundError, find_session

        if session_id in self._sessions:
            return acp.schema.ResumeSessionResponse(
                modes=self._modes(self._sessions[session_id].mode)
            )
        config = self._config(cwd, mcp_servers)
        try:
            path = find_session(config.codex_home, session_id).path
        except (SessionNotFoundError, NotASessionError) as err:
            raise acp.RequestError.resource_not_found(str(err)) from None
        resumed_id, state, _configured = await self._open(config, path)
        state.pump = asyncio.get_running_loop().create_task(self._pump(resumed_id, state))
        return acp.schema.ResumeSessionResponse(modes=self._modes(state.mode))

    async def close_session(self, session_id: str, **_: Any) -> acp.schema.CloseSessionResponse:
        """Stop the session (a running prompt ends `cancelled`) and forget it."""
        state = self._sessions.pop(session_id, None)
        if state is None:
            raise acp.RequestError.resource_not_found(f"no session {session_id}")
        await self._shut(state)
        if state.turn_done is not None and not state.turn_done.done():
            state.turn_done.set_result("cancelled")
        return acp.schema.CloseSessionResponse()

    async def set_session_mode(self, session_id: str, mode_id: str, **_: Any) -> None:
        """Switch between the read-only / auto / full-access presets."""
        state = self._state(session_id)
        preset = BY_ID.get(mode_id)
        if preset is None:
            raise acp.RequestError.invalid_params({"modeId": f"unknown mode {mode_id}"})
        await state.session.submit(
            OverrideTurnContextOp(approval_policy=preset.approval, sandbox_policy=preset.sandbox())
        )
        state.mode = mode_id
        await self._conn.session_update(session_id, update_current_mode(mode_id))

    async def prompt(self, session_id: str, prompt: list[Any], **_: Any) -> acp.PromptResponse:
        """Run one turn; returns when it ends (`end_turn`) or is cancelled (`cancelled`)."""
        state = self._state(session_id)
        state.turn_done = asyncio.get_running_loop().create_future()
        await state.session.submit(UserTurnOp(items=prompt_items(prompt)))
        stop_reason = await state.turn_done
        return acp.PromptResponse(stop_reason=stop_reason)

    async def cancel(self, session_id: str, **_: Any) -> None:
        """Interrupt the running turn; the prompt returns `cancelled`."""
        state = self._sessions.get(session_id)
        if state is not None:
            await state.session.submit(InterruptOp())

    def _state(self, session_id: str) -> AcpSession:
        state = self._sessions.get(session_id)
        if state is None:
            raise acp.RequestError.resource_not_found(f"no session {session_id}")
        return state

    async def _pump(self, session_id: str, state: AcpSession) -> None:
        """Send each notice of the session's projection as updates; ask for approvals,
        decline MCP servers' questions, end the prompt with its turn."""
        while True:
            event = await state.session.next_event()
            for notice in state.builder.projection.feed(event):
                if isinstance(notice, n.SessionEnded):
                    return
                for update in state.builder.of(notice):
                    await self._conn.session_update(session_id, update)
                await self._act(session_id, state, notice)

    async def _act(self, session_id: str, state: AcpSession, notice: n.Notice) -> None:
        if isinstance(notice, n.CommandApprovalRequested | n.PatchApprovalRequested):
            asyncio.get_running_loop().create_task(self._ask(session_id, state, notice))
        elif isinstance(notice, n.ElicitationRequested):
            # ACP has no stable elicitation yet (the SDK's is unstable): decline, as exec.
            answer = ResolveElicitationOp(
                server_name=notice.server_name, request_id=notice.request_id, decision="decline"
            )
            await state.session.submit(answer)
        elif isinstance(notice, n.TurnEnded):
            reason: StopReason = "cancelled" if notice.status == "interrupted" else "end_turn"
            if state.turn_done is not None and not state.turn_done.done():
                state.turn_done.set_result(reason)

    async def _ask(
        self,
        session_id: str,
        state: AcpSession,
        request: n.CommandApprovalRequested | n.PatchApprovalRequested,
    ) -> None:
        decision: ReviewDecision = "abort"
        try:
            answer = await self._conn.request_permission(
                session_id=session_id,
                tool_call=permission_tool_call(request),
                options=PERMISSION_OPTIONS,
            )
            if isinstance(answer.outcome, AllowedOutcome):
                decision = DECISIONS.get(answer.outcome.option_id, "abort")
        except Exception:  # the client went away or failed: never run unapproved
            log.exception("permission request failed")
        if isinstance(request, n.CommandApprovalRequested):
            await state.session.submit(ExecApprovalOp(id=request.item_id, decision=decision))
        else:
            await state.session.submit(PatchApprovalOp(id=request.item_id, decision=decision))

    async def close(self) -> None:
        """Shut every session down."""
        for state in self._sessions.values():
            await self._shut(state)
        self._sessions.clear()

    async def _shut(self, state: AcpSession) -> None:
        await state.session.submit(ShutdownOp())
        if state.pump is not None:
            try:
                await asyncio.wait_for(state.pump, 10)
            except (TimeoutError, asyncio.CancelledError):
                pass
