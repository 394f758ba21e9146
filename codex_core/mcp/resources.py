"""The MCP resource tools: `list_mcp_resources`, `list_mcp_resource_templates`, `read_mcp_resource`.

As in the Codex CLI 0.169 they are offered whenever an MCP server is configured, right after
the command tools. Each call emits `mcp_tool_call_begin`/`_end` (server `codex` when the
model names none) and answers with compact JSON: resources carry the server they come from.
Bad arguments and unknown servers are answered before any event.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from mcp import types
from mcp.client.session import ClientSession

from codex_core.client import ToolSpec
from codex_core.kernel import ToolCall, ToolOutput
from codex_core.mcp.connection import McpCallError
from codex_core.mcp.manager import McpConnectionManager
from codex_core.protocol import McpInvocation, McpToolCallBeginEvent, McpToolCallEndEvent
from codex_core.tools.context import ToolContext
from codex_core.tools.errors import RespondToModel
from codex_core.tools.registry import ToolEntry, ToolRegistry

LIST_RESOURCES = "list_mcp_resources"
LIST_TEMPLATES = "list_mcp_resource_templates"
READ_RESOURCE = "read_mcp_resource"
AGGREGATE_SERVER = "codex"
"""The server name events carry for a call that spans every server."""
_AFTER = ("exec_command", "write_stdin", "shell", "container.exec", "local_shell")

_SERVER_ALL = "MCP server name. Omit to list {what} from every configured server."
_CURSOR = "Opaque cursor from a previous {tool} call; omit for the first page."


def _list_spec(name: str, what: str, description: str) -> ToolSpec:
    return ToolSpec(
        name=name,
        description=description,
        parameters={
            "type": "object",
            "properties": {
                "cursor": {"type": "string", "description": _CURSOR.format(tool=name)},
                "server": {"type": "string", "description": _SERVER_ALL.format(what=what)},
            },
            "additionalProperties": False,
        },
    )


SPECS = (
    _list_spec(
        LIST_RESOURCES,
        "resources",
        "Lists resources provided by MCP servers. Resources allow servers to share data that "
        "provides context to language models, such as files, database schemas, or "
        "application-specific information. Prefer resources over web search when possible.",
    ),
    _list_spec(
        LIST_TEMPLATES,
        "resource templates",
        "Lists resource templates provided by MCP servers. Parameterized resource templates "
        "allow servers to share data that takes parameters and provides context to language "
        "models, such as files, database schemas, or application-specific information. Prefer "
        "resource templates over web search when possible.",
    ),
    ToolSpec(
        name=READ_RESOURCE,
        description="Read a specific resource from an MCP server given the server name and "
        "resource URI.",
        parameters={
            "type": "object",
            "properties": {
                "server": {
                    "type": "string",
                    "description": "MCP server name exactly as configured. Must match the "
                    "'server' field returned by list_mcp_resources.",
                },
                "uri": {
                    "type": "string",
                    "description": "Resource URI to read. Must be one of the URIs returned by "
                    "list_mcp_resources.",
                },
            },
            "required": ["server", "uri"],
            "additionalProperties": False,
        },
    ),
)

_KEY_ORDER = (
    "server",
    "uri",
    "uriTemplate",
    "name",
    "title",
    "description",
    "mimeType",
    "size",
    "text",
    "blob",
    "annotations",
    "icons",
    "_meta",
)


def register_resource_tools(registry: ToolRegistry, manager: McpConnectionManager) -> None:
    """Offer the three tools right after the command tools (once per registry)."""
    if LIST_RESOURCES in registry.entries:
        return
    handlers = {
        LIST_RESOURCES: _list_resources,
        LIST_TEMPLATES: _list_templates,
        READ_RESOURCE: _read_resource,
    }
    added: dict[str, ToolEntry] = {}
    for spec in SPECS:
        run = handlers[spec.name]

        async def handler(
            ctx: ToolContext,
            call: ToolCall,
            run: Callable[..., Awaitable[str]] = run,
        ) -> ToolOutput:
            return await run(ctx, call, manager)

        added[spec.name] = ToolEntry(
            spec.name, handler, _fixed(spec), mutating=False, approval="none"
        )
    entries = list(registry.entries.items())
    cut = max((i + 1 for i, (name, _) in enumerate(entries) if name in _AFTER), default=0)
    registry.entries = dict([*entries[:cut], *added.items(), *entries[cut:]])


def _fixed(spec: ToolSpec) -> Any:
    return lambda _policy: spec


def _arguments(payload: str, required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The call's arguments; fields the model sent must be strings (as 0.169 parses them)."""
    try:
        value = json.loads(payload) if payload.strip() else {}
    except json.JSONDecodeError as err:
        raise RespondToModel(f"failed to parse function arguments: {err}") from None
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise RespondToModel("failed to parse function arguments: expected an object")
    for key in ("server", "cursor", "uri"):
        if value.get(key) is not None and not isinstance(value[key], str):
            kind = _SERDE_KIND.get(type(value[key]), "a value")
            raise RespondToModel(
                f"failed to parse function arguments: invalid type: {kind}, expected a string"
            )
    for key in required:
        if value.get(key) is None:
            raise RespondToModel(f"failed to parse function arguments: missing field `{key}`")
    return value


_SERDE_KIND = {bool: "boolean", int: "number", float: "number", list: "sequence", dict: "map"}


def _known(manager: McpConnectionManager, server: str) -> str:
    if server not in manager.configs:
        raise RespondToModel(f"unknown MCP server '{server}'")
    return server


def dumps(value: Any) -> str:
    """Compact JSON as the Codex CLI writes it (no spaces, non-ASCII kept)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _entry(model: Any, server: str | None = None) -> dict[str, Any]:
    """A resource, template or content in the Codex CLI's key order, tagged with its server."""
    raw = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    raw.pop("type", None)
    if server is not None:
        raw["server"] = server
    ordered = {key: raw.pop(key) for key in _KEY_ORDER if key in raw}
    ordered.update(raw)
    return ordered


async def _run_call(
    ctx: ToolContext,
    call: ToolCall,
    server: str | None,
    arguments: dict[str, Any],
    fetch: Callable[[], Awaitable[str]],
) -> str:
    """Emit the begin/end events around `fetch`; its text, or its error, is the output."""
    invocation = McpInvocation(
        server=server or AGGREGATE_SERVER, tool=call.name, arguments=arguments
    )
    ctx.emit(McpToolCallBeginEvent(call_id=call.call_id, invocation=invocation))
    started = time.monotonic()
    try:
        text = await fetch()
    except McpCallError as err:
        took = time.monotonic() - started
        ctx.emit(McpToolCallEndEvent.err(call.call_id, invocation, took, str(err)))
        return str(err)
    took = time.monotonic() - started
    shown = {"content": [{"type": "text", "text": text}], "isError": False}
    ctx.emit(McpToolCallEndEvent.ok(call.call_id, invocation, took, shown))
    return text


async def _request(
    manager: McpConnectionManager,
    server: str,
    method: str,
    send: Callable[[ClientSession], Awaitable[Any]],
    subject: str = "",
) -> Any:
    try:
        return await manager.request(server, send, method)
    except McpCallError as err:
        raise McpCallError(
            f"{method} failed: {method} failed for `{server}`{subject}: {err}"
        ) from err


async def _list_resources(ctx: ToolContext, call: ToolCall, manager: McpConnectionManager) -> str:
    args = _arguments(call.payload)
    server, cursor = args.get("server"), args.get("cursor")
    if server is None:
        if cursor is not None:
            raise RespondToModel("cursor can only be used when a server is specified")

        async def every_server() -> str:
            found: list[dict[str, Any]] = []
            for name in manager.servers_with_resources():
                for page in await all_pages(manager, name, "resources/list"):
                    found.extend(_entry(r, name) for r in page.resources)
            return dumps({"resources": found})

        return await _run_call(ctx, call, None, args, every_server)
    _known(manager, server)

    async def one_server() -> str:
        page = await _request(
            manager,
            server,
            "resources/list",
            lambda s: s.list_resources(params=types.PaginatedRequestParams(cursor=cursor)),
        )
        body: dict[str, Any] = {
            "server": server,
            "resources": [_entry(r, server) for r in page.resources],
        }
        if page.nextCursor:
            body["nextCursor"] = page.nextCursor
        return dumps(body)

    return await _run_call(ctx, call, server, args, one_server)


async def _list_templates(ctx: ToolContext, call: ToolCall, manager: McpConnectionManager) -> str:
    args = _arguments(call.payload)
    server, cursor = args.get("server"), args.get("cursor")
    method = "resources/templates/list"
    if server is None:
        if cursor is not None:
            raise RespondToModel("cursor can only be used when a server is specified")

        async def every_server() -> str:
            found: list[dict[str, Any]] = []
            for name in manager.servers_with_resources():
                for page in await all_pages(manager, name, method):
                    found.extend(_entry(t, name) for t in page.resourceTemplates)
            return dumps({"resourceTemplates": found})

        return await _run_call(ctx, call, None, args, every_server)
    _known(manager, server)

    async def one_server() -> str:
        page = await _request(
            manager,
            server,
            method,
            lambda s: s.list_resource_templates(params=types.PaginatedRequestParams(cursor=cursor)),
        )
        body: dict[str, Any] = {
            "server": server,
            "resourceTemplates": [_entry(t, server) for t in page.resourceTemplates],
        }
        if page.nextCursor:
            body["nextCursor"] = page.nextCursor
        return dumps(body)

    return await _run_call(ctx, call, server, args, one_server)


async def all_pages(manager: McpConnectionManager, server: str, method: str) -> list[Any]:
    """Every page of a listing; a server that fails is left out of the aggregate."""
    pages: list[Any] = []
    cursor: str | None = None
    while True:
        send = _pager(method, types.PaginatedRequestParams(cursor=cursor))
        try:
            page = await manager.request(server, send, method)
        except McpCallError:
            return pages
        pages.append(page)
        cursor = page.nextCursor
        if not cursor or len(pages) >= 100:
            return pages


def _pager(
    method: str, params: types.PaginatedRequestParams
) -> Callable[[ClientSession], Awaitable[Any]]:
    def send(session: ClientSession) -> Awaitable[Any]:
        if method == "resources/list":
            return session.list_resources(params=params)
        return session.list_resource_templates(params=params)

    return send


async def _read_resource(ctx: ToolContext, call: ToolCall, manager: McpConnectionManager) -> str:
    args = _arguments(call.payload, required=("server", "uri"))
    server, uri = _known(manager, args["server"]), str(args["uri"])

    async def read() -> str:
        result = await _request(
            manager,
            server,
            "resources/read",
            lambda s: s.read_resource(uri),  # type: ignore[arg-type]
            f" ({uri})",
        )
        contents = [_entry(c) for c in result.contents]
        return dumps({"server": server, "uri": uri, "contents": contents})

    return await _run_call(ctx, call, server, args, read)
