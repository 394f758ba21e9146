"""One function per thread and turn request method (`method_tables` maps names to them)."""

from __future__ import annotations

import platform
from pathlib import Path

from codex_core import __version__
from codex_core.protocol import (
    CompactOp,
    InterruptOp,
    UserTurnOp,
)
from codex_core.servers.app_server import model_methods as m
from codex_core.servers.app_server import model_notify as n
from codex_core.servers.app_server.approval_param import parse_approval
from codex_core.servers.app_server.context import ServerContext
from codex_core.servers.app_server.model_build import build_thread_models
from codex_core.servers.app_server.model_thread import sandbox_from_wire
from codex_core.servers.app_server.persisted import thread_from_rollout, thread_from_summary
from codex_core.servers.app_server.threads import (
    LoadedThread,
    load_thread_config,
    rollout_path_of,
    session_source,
    start_session,
)
from codex_core.servers.app_server.translate import Translator
from codex_core.servers.app_server.user_input import core_input
from codex_core.servers.app_server.wire import RpcError, invalid_request

DEFAULT_PAGE_SIZE = 25


def user_agent(client: m.ClientInfo) -> str:
    """`<client name>/<our version> (<os> <release>; <arch>) codex-python (<client>; <ver>)`."""
    system = f"{platform.system()} {platform.release()}"
    return (
        f"{client.name}/{__version__} ({system}; {platform.machine()}) "
        f"codex-python ({client.name}; {client.version})"
    )


async def initialize(server: ServerContext, params: m.InitializeParams) -> m.InitializeResponse:
    """The handshake: who we are and where CODEX_HOME is."""
    from codex_core.frontend import CodexHomeError, find_codex_home

    try:
        home = find_codex_home()
    except CodexHomeError as err:
        raise RpcError(str(err)) from None
    server.initialized = True
    server.client_name = params.clientInfo.name
    server.experimental_api = bool(params.capabilities and params.capabilities.experimentalApi)
    return m.InitializeResponse(
        userAgent=user_agent(params.clientInfo),
        codexHome=str(home),
        platformFamily="windows" if platform.system() == "Windows" else "unix",
        platformOs=platform.system().lower().replace("darwin", "macos"),
    )


# ------------------------------------------------------------------ threads


async def _load(
    server: ServerContext,
    params: m._ThreadOverrides,
    resume: Path | None,
    forked_from: str | None = None,
) -> LoadedThread:
    build_thread_models()
    config = load_thread_config(
        server.cli_overrides, params, server.flags, experimental=server.experimental_api
    )
    if resume is not None:  # a resume or fork (an IDE's or the TUI's, as 0.169's)
        from codex_core.servers.app_server.recorded_policies import with_recorded_policies

        config = with_recorded_policies(config, resume, fork=forked_from is not None)
    session = await start_session(config, resume, session_source(server.client_name))
    loaded = LoadedThread(
        session,
        config,
        Translator(session.session_id),
        forked_from=forked_from,
        recorded=resume is not None,
    )
    server.adopt(loaded)
    return loaded


def _find_path(server: ServerContext, thread_id: str, *, written: bool = False) -> Path:
    return rollout_path_of(server.threads, thread_id, written=written)


async def thread_start(
    server: ServerContext, params: m.ThreadStartParams
) -> m.ThreadSessionResponse:
    """A new thread, recorded as an ordinary rollout."""
    loaded = await _load(server, params, None)
    server.after_response(n.ThreadStartedNotification(thread=loaded.thread()))
    return loaded.session_response()


async def thread_resume(
    server: ServerContext, params: m.ThreadResumeParams
) -> m.ThreadSessionResponse:
    """Load a persisted thread (or return the loaded one) with its turns; a thread without
    turns (nothing recorded yet) is 0.169's `no rollout found` error."""
    path = _find_path(server, params.threadId, written=True)
    loaded = server.threads.get(params.threadId)
    if loaded is None:
        loaded = await _load(server, params, path)
    else:  # loaded by another connection (or this one): this client watches it too
        server.subscribe(loaded)
    thread = loaded.thread()
    if not params.excludeTurns and loaded.session.rollout_path is not None:
        path = loaded.session.rollout_path
        thread.turns = thread_from_rollout(path, with_turns=True).turns
    return loaded.session_response(thread)


async def thread_fork(server: ServerContext, params: m.ThreadForkParams) -> m.ThreadSessionResponse:
    """Copy a thread into a new one and load it."""
    from codex_core.frontend import find_codex_home
    from codex_core.rollout import fork_rollout

    source = _find_path(server, params.threadId, written=True)
    try:
        copy = fork_rollout(find_codex_home(), source, None)
    except OSError as err:
        raise RpcError(f"cannot fork thread {params.threadId}: {err}") from None
    loaded = await _load(server, params, copy, forked_from=params.threadId)
    thread = loaded.thread()
    if not params.excludeTurns:
        thread.turns = thread_from_rollout(copy, with_turns=True).turns
    server.after_response(n.ThreadStartedNotification(thread=loaded.thread()))
    return loaded.session_response(thread)


async def thread_list(server: ServerContext, params: m.ThreadListParams) -> m.ThreadListResponse:
    """Recorded threads, newest first, paged and filtered by cwd, archive state, provider."""
    from codex_core.frontend import find_codex_home
    from codex_core.frontend.sessions import thread_names_by_id
    from codex_core.rollout import InvalidCursorError, list_sessions

    cwds: list[str | None] = [params.cwd] if isinstance(params.cwd, str) else [*(params.cwd or [])]
    cwds = cwds or [None]
    if len(cwds) > 1:
        raise invalid_request("only one cwd filter is supported")
    archived = bool(params.archived)
    providers: list[str | None] = [*(params.modelProviders or [])] or [None]
    try:
        page = list_sessions(
            find_codex_home(),
            page_size=params.limit or DEFAULT_PAGE_SIZE,
            cursor=params.cursor,
            cwd=cwds[0],
            provider=providers[0] if len(providers) == 1 else None,
            include_archived=archived,
        )
    except InvalidCursorError as err:
        raise invalid_request(f"invalid cursor: {err}") from None
    data = []
    names = thread_names_by_id(find_codex_home())
    for summary in page.items:
        if summary.archived != archived:
            continue
        if params.searchTerm and params.searchTerm.lower() not in summary.preview.lower():
            continue
        thread = thread_from_summary(summary)
        thread.name = names.get(summary.id)
        loaded = server.threads.get(summary.id)
        if loaded is not None:
            thread.status = loaded.status()
        data.append(thread)
    return m.ThreadListResponse(data=data, nextCursor=page.next_cursor)


async def thread_read(server: ServerContext, params: m.ThreadReadParams) -> m.ThreadReadResponse:
    """A thread's metadata (its name from session_index.jsonl) and, with `includeTurns`, its
    turns."""
    from codex_core.frontend import find_codex_home
    from codex_core.frontend.sessions import thread_names_by_id

    try:
        path = _find_path(server, params.threadId)
    except RpcError:  # 0.169's words for a thread neither loaded nor recorded
        raise RpcError(f"thread not loaded: {params.threadId}") from None
    loaded = server.threads.get(params.threadId)
    thread = thread_from_rollout(
        path, loaded.status() if loaded else None, with_turns=params.includeTurns
    )
    thread.name = thread_names_by_id(find_codex_home()).get(thread.id)
    return m.ThreadReadResponse(thread=thread)


async def thread_archive(server: ServerContext, params: m.ThreadIdParams) -> m.EmptyResponse:
    """Move a thread's rollout to `archived_sessions/` (stopping it if loaded)."""
    from codex_core.frontend import find_codex_home
    from codex_core.rollout import archive_session

    path = _find_path(server, params.threadId)
    loaded = server.threads.pop(params.threadId, None)
    if loaded is not None:
        await loaded.shutdown()
    try:
        archive_session(find_codex_home(), path)
    except OSError as err:
        raise RpcError(f"cannot archive thread {params.threadId}: {err}") from None
    server.after_response(n.ThreadArchivedNotification(threadId=params.threadId))
    return m.EmptyResponse()


async def thread_compact(server: ServerContext, params: m.ThreadIdParams) -> m.EmptyResponse:
    """Compact the thread's context (runs as a turn)."""
    loaded = server.thread(params.threadId)
    sub_id = await loaded.session.submit(CompactOp())
    loaded.translator.begin_turn(sub_id, [], compact=True)
    return m.EmptyResponse()


# ------------------------------------------------------------------ turns


async def turn_start(server: ServerContext, params: m.TurnStartParams) -> m.TurnStartResponse:
    """Start a turn; its progress arrives as notifications."""
    loaded = server.thread(params.threadId)
    if not params.input:
        raise invalid_request("input must not be empty")
    approval, granular = parse_approval(params.approvalPolicy, server.experimental_api)
    op = UserTurnOp(
        items=[core_input(entry) for entry in params.input],
        cwd=params.cwd,
        approval_policy=approval,
        granular=granular,
        sandbox_policy=sandbox_from_wire(params.sandboxPolicy) if params.sandboxPolicy else None,
        model=params.model,
        effort=params.effort,
        summary=params.summary,
        final_output_json_schema=params.outputSchema,
    )
    sub_id = await loaded.session.submit(op)
    turn = loaded.translator.begin_turn(sub_id, list(params.input), compact=False)
    loaded.translator.turns[sub_id].client_id = params.clientUserMessageId
    return m.TurnStartResponse(turn=turn)


async def turn_interrupt(server: ServerContext, params: m.TurnInterruptParams) -> m.EmptyResponse:
    """Abort the running turn; it completes with status `interrupted`."""
    loaded = server.thread(params.threadId)
    if loaded.translator.running_sub(params.turnId) is None:
        raise invalid_request(f"no active turn {params.turnId} in thread {params.threadId}")
    await loaded.session.submit(InterruptOp())
    return m.EmptyResponse()


# ------------------------------------------------------------------ misc


async def model_list(server: ServerContext, params: m.ModelListParams) -> m.ModelListResponse:
    """The models a client may pick."""
    from codex_core.config import load_config
    from codex_core.servers.app_server.catalog import model_catalog

    config = load_config(None, server.cli_overrides)
    models = model_catalog(config.model)
    start = int(params.cursor) if params.cursor and params.cursor.isdigit() else 0
    end = start + (params.limit or len(models))
    return m.ModelListResponse(
        data=models[start:end], nextCursor=str(end) if end < len(models) else None
    )


async def fuzzy_file_search(
    server: ServerContext, params: m.FuzzyFileSearchParams
) -> m.FuzzyFileSearchResponse:
    """Files under `roots` matching `query`."""
    import asyncio

    from codex_core.servers.app_server.fuzzy import fuzzy_file_search as search

    files = await asyncio.to_thread(search, params.query, params.roots)
    return m.FuzzyFileSearchResponse(files=files)
