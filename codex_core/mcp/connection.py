"""One MCP server connection on the `mcp` SDK: start, list tools, call tools, stop.

Each connection is owned by one asyncio task that enters the SDK's transport and session
context managers and leaves them when asked to stop (the SDK's anyio scopes must be exited
by the task that entered them). Calls come from other tasks through the `ClientSession`.
A stdio child runs in its own process group and its stderr goes to the log.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable, Mapping
from contextlib import AsyncExitStack
from datetime import timedelta
from typing import IO, Any, Literal, TypeVar

import anyio
import httpx
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import McpError

from codex_core import __version__
from codex_core.config.types import McpServerConfig
from codex_core.mcp.launch import http_headers, startup_timeout, stdio_env
from codex_core.mcp.stderr_log import stderr_to_log
from codex_core.mcp.stdio import stdio_transport

log = logging.getLogger(__name__)
# The SDK logs every unparsable line with a traceback; our own log says what failed.
logging.getLogger("mcp").setLevel(logging.CRITICAL)

_T = TypeVar("_T")
Elicit = Callable[[str, types.ElicitRequestParams], Awaitable[types.ElicitResult]]
"""Asks the user for what a server's `elicitation/create` wants: (server, params) → answer."""
Status = Literal["starting", "ready", "failed", "exited", "stopped"]
STOP_GRACE_SEC = 5.0


class McpCallError(Exception):
    """A call that produced no result: timeout, server gone, protocol error."""


class ServerConnection:
    """A running (or failed) server; `ready` is set once it is usable or has failed."""

    def __init__(
        self,
        name: str,
        config: McpServerConfig,
        environ: Mapping[str, str],
        cwd: str,
        elicit: Elicit | None = None,
    ) -> None:
        self.name = name
        self._elicit = elicit
        self.config = config
        self.status: Status = "starting"
        self.error: str | None = None
        self.instructions: str | None = None
        self.capabilities: types.ServerCapabilities | None = None
        self.server_info: types.Implementation | None = None
        self.tools: list[types.Tool] = []
        self.ready = asyncio.Event()
        self.startup_seconds: float | None = None
        self._environ = environ
        self._cwd = cwd
        self._session: ClientSession | None = None
        self._stop = asyncio.Event()
        self._hurry = False
        self._task: asyncio.Task[None] | None = None

    def start(self, launched_at: float | None = None) -> None:
        """Begin connecting in the background; `launched_at` (`time.monotonic()`) is when a
        stdio server's process was started early: its startup timeout counts from there."""
        started = time.monotonic()
        if launched_at is not None and self.config.url is None:
            started = min(started, launched_at)
        self._task = asyncio.get_running_loop().create_task(
            self._run(started), name=f"mcp server {self.name}"
        )

    async def _run(self, started: float) -> None:
        stderr_write: IO[str] | None = None
        try:
            async with AsyncExitStack() as stack:
                if self.config.url is not None:
                    streams = await stack.enter_async_context(self._http_transport(stack))
                    read, write = streams[0], streams[1]
                else:
                    stderr_write = stderr_to_log(self.name)
                    read, write = await stack.enter_async_context(
                        stdio_transport(self._stdio_params(), stderr_write, lambda: self._hurry)
                    )
                    # The child has its copy now; ours would keep the log reader alive.
                    stderr_write.close()
                session = await stack.enter_async_context(
                    ClientSession(
                        read,
                        write,
                        client_info=types.Implementation(
                            name="codex-mcp-client", title="Codex", version=__version__
                        ),
                        # Given a callback, the SDK advertises elicitation (form and url).
                        elicitation_callback=self._on_elicit if self._elicit else None,
                    )
                )
                try:
                    with anyio.fail_after(_left(started, startup_timeout(self.config))):
                        init = await session.initialize()
                        self.instructions = init.instructions
                        self.capabilities = init.capabilities
                        self.server_info = init.serverInfo
                        self.tools = await _list_all_tools(session)
                except TimeoutError:
                    # Say so now: closing a stdio child that is not reading can take the
                    # SDK seconds more, and the first request must not wait for that.
                    self._fail(f"timed out after {startup_timeout(self.config):g}s starting up")
                    self.ready.set()
                    # A server that never came up has no session to leave: its process
                    # group is ended at once, not given seconds to read its closed stdin
                    # (`codex exec` sat ~4 s past its answer waiting for one).
                    self._hurry = True
                    return
                self._session = session
                self.status = "ready"
                self.startup_seconds = time.monotonic() - started
                self.ready.set()
                log.info("MCP server %s ready with %d tools", self.name, len(self.tools))
                await self._stop.wait()
        except TimeoutError:
            self._fail(f"timed out after {startup_timeout(self.config):g}s starting up")
        except asyncio.CancelledError:
            self._fail("stopped")
            raise
        except BaseException as err:  # noqa: BLE001 (a broken server must not take codex down)
            log.debug("MCP server %s failed", self.name, exc_info=True)
            self._fail(_describe(err))
        finally:
            if stderr_write is not None and not stderr_write.closed:
                stderr_write.close()
            self._session = None
            if self.status == "ready":
                self.status = "stopped" if self._stop.is_set() else "exited"
                if self.status == "exited":
                    self.error = "the server exited"
            self.ready.set()

    async def _on_elicit(
        self, context: Any, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        assert self._elicit is not None
        try:
            return await self._elicit(self.name, params)
        except Exception:  # noqa: BLE001 (the server gets an answer whatever happens)
            log.debug("elicitation from %s failed", self.name, exc_info=True)
            return types.ElicitResult(action="cancel")

    def _fail(self, message: str) -> None:
        if self.status == "ready":
            self.status = "exited"
            self.error = f"the server stopped: {message}"
            log.info("MCP server %s stopped: %s", self.name, message)
        elif self.status == "starting":
            self.status = "failed"
            self.error = message
            log.info("MCP server %s failed to start: %s", self.name, message)

    def _stdio_params(self) -> StdioServerParameters:
        assert self.config.command is not None
        cwd = self.config.cwd
        return StdioServerParameters(
            command=self.config.command,
            args=list(self.config.args),
            env=stdio_env(self.config, self._environ),
            cwd=os.path.join(self._cwd, os.path.expanduser(cwd)) if cwd else None,
        )

    def _http_transport(self, stack: AsyncExitStack) -> Any:
        assert self.config.url is not None
        client = httpx.AsyncClient(
            headers=http_headers(self.config, self._environ),
            timeout=httpx.Timeout(30.0, read=300.0),
            follow_redirects=True,
        )
        stack.push_async_callback(client.aclose)
        return streamable_http_client(self.config.url, http_client=client)

    async def call_tool(
        self, tool: str, arguments: dict[str, Any] | None, timeout: float
    ) -> types.CallToolResult:
        """Call `tool`; the server's own error results come back as results.

        Raises:
            McpCallError: The call timed out, or the server is not (or no longer) running.
        """
        return await self.request(
            lambda session: session.call_tool(
                tool, arguments, read_timeout_seconds=timedelta(seconds=timeout)
            ),
            timeout,
            "tools/call",
        )

    async def request(
        self,
        send: Callable[[ClientSession], Awaitable[_T]],
        timeout: float,
        method: str,
    ) -> _T:
        """Run one request on the session, bounded by `timeout` and by the server's life.

        Raises:
            McpCallError: The request timed out, failed, or the server is not running.
        """
        session = self._session
        if session is None or self._task is None or self._task.done():
            raise McpCallError(
                f"MCP server {self.name} is not running: {self.error or self.status}"
            )
        call = asyncio.ensure_future(send(session))
        done, _ = await asyncio.wait(
            {call, self._task}, timeout=timeout + 1.0, return_when=asyncio.FIRST_COMPLETED
        )
        if call not in done:
            call.cancel()
            if self._task in done:
                raise McpCallError(f"MCP server {self.name} exited during the call")
            raise McpCallError(f"timed out awaiting {method} after {timeout:g}s")
        try:
            return call.result()
        except Exception as err:
            raise McpCallError(_describe(err, timeout, method)) from err

    async def stop(self, *, hurry: bool = False) -> None:
        """Leave the session and end the server (stdio: close stdin, then terminate).

        `hurry` (the user is waiting, e.g. Ctrl+C in `codex exec`) terminates a stdio
        server's process group at once instead of giving it time to exit on its own.
        """
        # A server that never came up has no session to leave: it is ended at once (a
        # server that never answers `initialize` kept `codex exec` ~7 s past its answer).
        starting = self.status != "ready"
        self._hurry = hurry or starting
        self._stop.set()
        task = self._task
        if task is None or task.done():
            return
        if starting:
            task.cancel()
            try:
                await task
            except BaseException:  # noqa: BLE001 (cancelled, or already recorded by _run)
                pass
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), STOP_GRACE_SEC)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()
            try:
                await task
            except BaseException:  # noqa: BLE001
                pass
        except BaseException:  # noqa: BLE001 (already recorded by _run)
            pass


async def _list_all_tools(session: ClientSession) -> list[types.Tool]:
    tools: list[types.Tool] = []
    cursor: str | None = None
    while True:
        page = await session.list_tools(params=types.PaginatedRequestParams(cursor=cursor))
        tools.extend(page.tools)
        cursor = page.nextCursor
        if not cursor:
            return tools


def _describe(err: BaseException, timeout: float | None = None, method: str = "tools/call") -> str:
    """One line for an SDK, transport or process error (exception groups unwrapped)."""
    while isinstance(err, BaseExceptionGroup) and err.exceptions:
        err = err.exceptions[0]
    text = str(err).strip()
    if timeout is not None and "Timed out" in text:
        return f"timed out awaiting {method} after {timeout:g}s"
    if isinstance(err, anyio.BrokenResourceError | anyio.ClosedResourceError | EOFError):
        return "the connection broke (the server exited or does not speak MCP on stdout)"
    if isinstance(err, FileNotFoundError):
        return f"command not found: {err.filename or text}"
    if isinstance(err, httpx.HTTPStatusError):
        return f"HTTP {err.response.status_code} from {err.request.url}"
    if isinstance(err, httpx.HTTPError):
        return f"cannot reach the server: {text or type(err).__name__}"
    if isinstance(err, McpError) and method != "tools/call":
        # The Codex CLI's words for a JSON-RPC error answer to a resources request.
        return f"Mcp error: {err.error.code}: {err.error.message}"
    return text or type(err).__name__


def _left(started: float, timeout: float) -> float:
    """What is left at this moment of `timeout` seconds counted from `started`."""
    return max(0.0, started + timeout - time.monotonic())
