"""Loaded threads: one Session each, started from a config built for the request."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from codex_core import __version__
from codex_core.config import Config, ConfigOverrides
from codex_core.config.errors import ConfigError
from codex_core.protocol import ShutdownOp
from codex_core.servers.app_server.model_methods import ThreadSessionResponse, _ThreadOverrides
from codex_core.servers.app_server.model_thread import (
    ActiveStatus,
    IdleStatus,
    Thread,
    ThreadStatus,
    approval_to_wire,
    sandbox_to_wire,
)
from codex_core.servers.app_server.translate import Translator
from codex_core.servers.app_server.wire import RpcError
from codex_core.session import Session

SESSION_SOURCE: Literal["vscode"] = "vscode"
"""What Codex 0.169 records as the source of sessions started over app-server."""
TUI_CLIENT = "codex-tui"
"""The `clientInfo.name` our TUI (and 0.169's) gives in `initialize`."""


def flatten_config(values: dict[str, Any], prefix: str = "") -> list[str]:
    """`{"a": {"b": 1}}` as `-c` style `a.b=1` overrides (JSON scalars and arrays are TOML)."""
    out: list[str] = []
    for key, value in values.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            out.extend(flatten_config(value, dotted + "."))
        elif value is not None:
            out.append(f"{dotted}={json.dumps(value)}")
    return out


def load_thread_config(
    cli_overrides: list[str],
    params: _ThreadOverrides,
    flags: ConfigOverrides | None = None,
    *,
    experimental: bool = False,
) -> Config:
    """The config of a thread: request fields > `flags` (the local TUI's command line) >
    `config` map > global `-c` > files."""
    from dataclasses import replace

    from codex_core.config import load_config
    from codex_core.servers.app_server.approval_param import parse_approval

    approval, granular = parse_approval(params.approvalPolicy, experimental)
    requested: dict[str, Any] = {
        "model": params.model,
        "cwd": Path(params.cwd).expanduser() if params.cwd else None,
        "approval_policy": approval,
        "granular": granular,
        "sandbox_mode": params.sandbox,
        "model_provider": params.modelProvider,
        "base_instructions": params.baseInstructions,
        "approvals_reviewer": params.approvalsReviewer,
    }
    chosen = {key: value for key, value in requested.items() if value is not None}
    overrides = replace(flags or ConfigOverrides(), **chosen)
    if overrides.cwd is not None and not overrides.cwd.is_dir():
        raise RpcError(f"Invalid request: cwd {params.cwd} is not a directory")
    try:
        return load_config(overrides, [*cli_overrides, *flatten_config(params.config or {})])
    except ConfigError as err:
        raise RpcError(f"Invalid request: {err}") from None


@dataclass
class LoadedThread:
    """A thread this process runs: its session, translator and event pump."""

    session: Session
    config: Config
    translator: Translator
    created_at: int = field(default_factory=lambda: int(time.time()))
    forked_from: str | None = None
    recorded: bool = False
    """Loaded from a rollout (resumed or forked): it has history, not only its session_meta."""
    running: bool = False
    pump: asyncio.Task[None] | None = None
    stopped: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def id(self) -> str:
        """The thread id (= the session id, as in Codex)."""
        return self.session.session_id

    @property
    def preview(self) -> str:
        """The thread's first user message (the projection keeps it)."""
        return self.translator.preview

    def status(self) -> ThreadStatus:
        """Idle or active."""
        return ActiveStatus() if self.translator.turns else IdleStatus()

    def thread(self) -> Thread:
        """The thread in wire form (no turns)."""
        turn = self.session.turn
        path = self.session.rollout_path
        return Thread(
            id=self.id,
            sessionId=self.id,
            forkedFromId=self.forked_from,
            preview=self.preview,
            modelProvider=self.config.model_provider_id,
            model=turn.model,
            reasoningEffort=turn.effort,
            createdAt=self.created_at,
            updatedAt=int(path.stat().st_mtime) if path and path.exists() else self.created_at,
            status=self.status(),
            path=str(path) if path else None,
            cwd=str(turn.cwd),
            cliVersion=__version__,
            originator="codex_python",
            source=SESSION_SOURCE,
        )

    def session_response(self, thread: Thread | None = None) -> ThreadSessionResponse:
        """The result of `thread/start`, `thread/resume` and `thread/fork`."""
        turn = self.session.turn
        policy = turn.approval_policy
        return ThreadSessionResponse(
            thread=thread or self.thread(),
            model=turn.model,
            modelProvider=self.config.model_provider_id,
            cwd=str(turn.cwd),
            approvalPolicy=approval_to_wire(policy, turn.granular),
            sandbox=sandbox_to_wire(turn.sandbox_policy),
            reasoningEffort=turn.effort,
        )

    async def shutdown(self) -> None:
        """Stop the session; the pump ends when the session does."""
        await self.session.submit(ShutdownOp())
        if self.pump is not None:
            try:
                await asyncio.wait_for(self.stopped.wait(), 10)
            except TimeoutError:
                self.pump.cancel()


async def start_session(
    config: Config, resume_path: Path | None = None, source: str = SESSION_SOURCE
) -> Session:
    """A new session (or a resumed one) for a thread. Its stdio MCP servers start first, so
    they boot on the other core while the session loads the MCP SDK (`codex_core.mcp.early`)."""
    import os

    from codex_core.mcp.early import discard_unclaimed, start_early

    await start_early(config.mcp_servers or {}, os.environ, str(config.cwd))
    try:
        return await Session.create(config, source=source, resume_path=resume_path)
    except BaseException:
        await discard_unclaimed()
        raise


def session_source(client_name: str) -> str:
    """What a thread's rollout records as its source: `cli` for the TUI (local or
    `--remote`), as its sessions were before it became a client, else 0.169's `vscode`."""
    return "cli" if client_name == TUI_CLIENT else SESSION_SOURCE


def rollout_path_of(
    threads: dict[str, LoadedThread], thread_id: str, *, written: bool = False
) -> Path:
    """The rollout of a loaded or recorded (not archived) thread, or 0.169's -32600 error
    `no rollout found for thread id ID` (no "Invalid request:" prefix). A loaded thread's
    rollout is written at its first turn (or name) in 0.169 (ours writes its session_meta at
    once); with `written` one without a turn or a name is that error too, as 0.169 answers `thread/resume` and `thread/fork` of a thread without
    turns (its `thread/read`, `thread/archive` and `thread/name/set` take such a thread)."""
    from codex_core.frontend import NotASessionError, SessionNotFoundError, find_codex_home
    from codex_core.frontend.sessions import find_session, thread_names_by_id
    from codex_core.servers.app_server.wire import RpcError

    loaded = threads.get(thread_id)
    if loaded is not None and loaded.session.rollout_path is not None:
        if not written or loaded.recorded or loaded.translator.began_a_turn:
            return loaded.session.rollout_path
        if thread_names_by_id(find_codex_home()).get(thread_id):  # a name records it too
            return loaded.session.rollout_path
        raise RpcError(f"no rollout found for thread id {thread_id}")
    try:
        return find_session(find_codex_home(), thread_id).path
    except (SessionNotFoundError, NotASessionError):
        raise RpcError(f"no rollout found for thread id {thread_id}") from None
