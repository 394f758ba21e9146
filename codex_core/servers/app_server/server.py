"""One app-server connection: handshake, dispatch, event pumps and approval round trips."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from codex_core import lite
from codex_core.lite import Model as BaseModel

if TYPE_CHECKING:
    import pydantic

from codex_core.config.flags import ConfigOverrides
from codex_core.servers.app_server import model_notify as n
from codex_core.servers.app_server.hub import ThreadHub
from codex_core.servers.app_server.threads import TUI_CLIENT, LoadedThread
from codex_core.servers.app_server.wire import (
    Incoming,
    ParamsModel,
    RequestId,
    RpcError,
    error,
    invalid_request,
    notification,
    parse_line,
    response,
)

log = logging.getLogger(__name__)

TUI_ONLY = frozenset({"thread/backgroundMessage"})
"""Notifications of our own, sent only to clients named `codex-tui` (`model_tui`'s
`BackgroundMessageNotification`): other clients see 0.169's schema alone."""

Writer = Callable[[dict[str, Any]], None]
Handler = Callable[[Any, Any], Awaitable[BaseModel]]
"""A request handler: (the server, parsed params) → result."""


def describe_validation_error(err: pydantic.ValidationError) -> str:
    """The first problem of `err` in the words serde uses (`missing field`, `invalid type`)."""
    first = err.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    if first["type"] == "missing":
        return f"missing field `{first['loc'][-1]}`"
    if first["type"] in ("literal_error", "union_tag_invalid", "enum"):
        return f"unknown variant `{first.get('input')}` at `{where}`"
    if first["type"].endswith("_type"):
        value = first.get("input")
        kind = type(value).__name__.replace("int", "integer").replace("str", "string")
        return f"invalid type: {kind} `{value}` at `{where}`: {first['msg']}"
    return f"{first['msg']} at `{where}`"


class AppServer:
    """The protocol state of one client connection."""

    def __init__(
        self,
        cli_overrides: list[str],
        write: Writer,
        methods: Mapping[str, tuple[type[ParamsModel], Handler]],
        hub: ThreadHub | None = None,
        flags: ConfigOverrides | None = None,
    ) -> None:
        self.hub = hub or ThreadHub()
        self.cli_overrides = cli_overrides
        self.flags = flags
        self._write = write
        self._methods = methods
        self.initialized = False
        self.client_name = ""
        self.experimental_api = False
        self.threads: dict[str, LoadedThread] = self.hub.threads
        self._tasks: set[asyncio.Task[None]] = set()
        self._after: list[n.ServerMessage] = []

    # ------------------------------------------------------------------ output

    def notify(self, message: n.ServerMessage) -> None:
        """Send a notification."""
        self._write(notification(message.METHOD, message.model_dump(mode="json")))

    def after_response(self, message: n.ServerMessage) -> None:
        """Send `message` right after the response to the request being handled."""
        self._after.append(message)

    # ------------------------------------------------------------------ input

    async def handle_line(self, line: bytes | str) -> None:
        """Handle one client line; never raises for anything the client sent."""
        incoming = parse_line(line)
        if incoming is None:
            log.error("dropping a line that is not a JSON-RPC message: %.200r", line)
            return
        if incoming.is_response:
            self.hub.on_response(incoming)
        elif incoming.is_notification:
            log.debug("client notification %s", incoming.method)
        else:
            await self._on_request(incoming)

    async def _on_request(self, incoming: Incoming) -> None:
        assert incoming.id is not None and incoming.method is not None
        request_id: RequestId = incoming.id
        try:
            result = await self._call(incoming.method, incoming.params)
        except RpcError as err:
            self._after.clear()
            self._write(error(request_id, err))
            return
        except Exception as err:  # a bug answers the request; the server goes on
            log.exception("%s failed", incoming.method)
            self._write(error(request_id, RpcError(f"internal error: {err}", -32603)))
            return
        self._write(response(request_id, result.model_dump(mode="json")))
        followups, self._after = self._after, []
        for message in followups:
            self.notify(message)

    async def _call(self, method: str, params: Any) -> BaseModel:
        if method == "initialize" and self.initialized:
            raise RpcError("Already initialized")
        if method != "initialize" and not self.initialized:
            raise RpcError("Not initialized")
        entry = self._methods.get(method)
        if entry is None:
            names = ", ".join(f"`{name}`" for name in self._methods)
            raise invalid_request(f"unknown variant `{method}`, expected one of {names}")
        params_type, handler = entry
        try:
            parsed: ParamsModel = params_type.model_validate(params if params is not None else {})
        except lite.ValidationError as err:
            raise invalid_request(describe_validation_error(err)) from None
        return await handler(self, parsed)

    # ------------------------------------------------------------------ threads

    def send(self, message: dict[str, Any]) -> None:
        """Send one wire message to this client (the hub's subscriber interface); the codex
        extensions' notifications only to our TUI."""
        if message.get("method") in TUI_ONLY and self.client_name != TUI_CLIENT:
            return
        self._write(message)

    def thread(self, thread_id: str) -> LoadedThread:
        """A loaded thread, or the error Codex answers for an unknown one."""
        loaded = self.threads.get(thread_id)
        if loaded is None:
            raise invalid_request(f"thread not found: {thread_id}")
        return loaded

    def adopt(self, loaded: LoadedThread) -> None:
        """Run a newly loaded thread and send its events to this client."""
        self.hub.adopt(loaded, self)
        if self.hub.queues.waiting(loaded.id):  # messages queued while it was not loaded
            task = asyncio.get_running_loop().create_task(
                self.hub.queues.start_next(loaded, self.hub.notify)
            )
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def subscribe(self, loaded: LoadedThread) -> None:
        """Send a thread another client loaded to this client too."""
        self.hub.subscribe(loaded.id, self)

    async def close(self) -> None:
        """The client is gone: its threads keep running in the hub."""
        self.hub.unsubscribe(self)
