"""Handlers for naming, unarchiving and steering threads, and for the API-key account.

As Codex 0.169 answers them (checked side by side): `thread/name/set` appends to
session_index.jsonl and notifies `thread/name/updated`; `thread/unarchive` moves the rollout
back and returns the thread; `turn/steer` hands input to the running turn; the account
methods read, save and remove the API key of auth.json (ChatGPT sign-in is not offered).
"""

from __future__ import annotations

from codex_core.protocol import SteerInputOp
from codex_core.servers.app_server import model_admin as a
from codex_core.servers.app_server import model_methods as m
from codex_core.servers.app_server.context import ServerContext
from codex_core.servers.app_server.wire import RpcError, invalid_request


async def thread_set_name(server: ServerContext, params: a.ThreadSetNameParams) -> m.EmptyResponse:
    """Name a thread; the latest name is what `codex resume NAME` and thread lists show."""
    from codex_core.frontend import find_codex_home
    from codex_core.frontend.sessions import set_thread_name
    from codex_core.servers.app_server.threads import rollout_path_of

    name = params.name.strip()
    if not name:
        raise invalid_request("thread name must not be empty")
    rollout_path_of(server.threads, params.threadId)  # the thread must exist
    try:
        set_thread_name(find_codex_home(), params.threadId, name)
    except OSError as err:
        raise RpcError(f"cannot name thread {params.threadId}: {err.strerror}") from None
    server.after_response(
        a.ThreadNameUpdatedNotification(threadId=params.threadId, threadName=name)
    )
    return m.EmptyResponse()


async def thread_unarchive(
    server: ServerContext, params: m.ThreadIdParams
) -> a.ThreadUnarchiveResponse:
    """Move an archived thread back under `sessions/`."""
    from codex_core.frontend import find_codex_home
    from codex_core.rollout import unarchive_session
    from codex_core.servers.app_server.persisted import thread_from_rollout

    try:
        path = unarchive_session(find_codex_home(), params.threadId)
    except FileNotFoundError:
        raise invalid_request(
            f"no archived rollout found for thread id {params.threadId}"
        ) from None
    except OSError as err:
        raise RpcError(f"cannot unarchive thread {params.threadId}: {err}") from None
    from codex_core.frontend.sessions import thread_names_by_id

    server.after_response(a.ThreadUnarchivedNotification(threadId=params.threadId))
    thread = thread_from_rollout(path, with_turns=False)
    thread.name = thread_names_by_id(find_codex_home()).get(thread.id)
    return a.ThreadUnarchiveResponse(thread=thread)


async def turn_steer(server: ServerContext, params: a.TurnSteerParams) -> a.TurnSteerResponse:
    """Add input to the running turn (it reaches the model at the turn's next request)."""
    from codex_core.servers.app_server.user_input import core_input

    loaded = server.thread(params.threadId)
    running = [state.id for state in loaded.translator.turns.values()]
    if not running:
        raise invalid_request("there is no running turn to steer")
    if params.expectedTurnId not in running:
        raise invalid_request(
            f"expected the running turn {params.expectedTurnId}, but it is {running[-1]}"
        )
    if not params.input:
        raise invalid_request("input must not be empty")
    await loaded.session.submit(SteerInputOp(items=[core_input(e) for e in params.input]))
    return a.TurnSteerResponse(turnId=params.expectedTurnId)


# ------------------------------------------------------------------ account


async def account_read(server: ServerContext, params: a.GetAccountParams) -> a.GetAccountResponse:
    """Whether an API key is saved or set, and whether the provider needs OpenAI auth."""
    from codex_core.auth import load_api_key
    from codex_core.config import load_config

    config = load_config(None, server.cli_overrides)
    provider = config.model_provider
    key = load_api_key(config.codex_home, provider) if provider.requires_openai_auth else None
    return a.GetAccountResponse(
        account=a.ApiKeyAccount() if key else None,
        requiresOpenaiAuth=provider.requires_openai_auth,
    )


async def account_logout(server: ServerContext, params: a.GetAccountParams) -> m.EmptyResponse:
    """Remove auth.json (`codex logout`)."""
    from codex_core.auth import delete_auth
    from codex_core.frontend import find_codex_home

    try:
        delete_auth(find_codex_home())
    except OSError as err:
        raise RpcError(f"cannot remove auth.json: {err.strerror}") from None
    server.after_response(a.AccountUpdatedNotification(authMode=None))
    return m.EmptyResponse()


async def account_login_start(
    server: ServerContext, params: a.LoginAccountParams
) -> a.LoginAccountResponse:
    """Save an API key (`codex login --with-api-key`); ChatGPT sign-in is refused."""
    from codex_core.auth import save_api_key
    from codex_core.frontend import find_codex_home

    if params.type != "apiKey":
        raise invalid_request(
            f"login type {params.type!r} is not supported by this codex; sign in with an API "
            'key ({"type": "apiKey", "apiKey": "sk-…"})'
        )
    if not params.apiKey or not params.apiKey.strip():
        raise invalid_request("apiKey must not be empty")
    try:
        save_api_key(find_codex_home(), params.apiKey.strip())
    except OSError as err:
        raise RpcError(f"cannot save the API key: {err.strerror}") from None
    server.after_response(a.AccountLoginCompletedNotification(success=True))
    server.after_response(a.AccountUpdatedNotification(authMode="apikey"))
    return a.LoginAccountResponse()


async def account_login_cancel(
    server: ServerContext, params: a.CancelLoginAccountParams
) -> m.EmptyResponse:
    """No login ever waits here (API keys are saved at once): every id is unknown."""
    raise invalid_request(f"no login in progress with id {params.loginId}")
