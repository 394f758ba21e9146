"""The TUI's ops that are plain requests to its app-server, and their answers as the
notices the cells take (`/mcp`, `/undo`, `/ps`, `/stop`, `/review`, the message history)."""

from __future__ import annotations

from typing import Any, Protocol

from codex_core.items import client as c
from codex_core.items import notices as n
from codex_core.protocol import (
    AddToHistoryOp,
    BackgroundTerminal,
    CleanBackgroundTerminalsOp,
    ExecApprovalOp,
    GetHistoryEntryRequestOp,
    ImageInput,
    InputItem,
    ListBackgroundTerminalsOp,
    ListMcpToolsOp,
    LocalImageInput,
    McpServerStatus,
    OverrideTurnContextOp,
    PatchApprovalOp,
    ResolveElicitationOp,
    ReviewOp,
    TerminateBackgroundTerminalOp,
    TextInput,
    UndoOp,
)

RequestOp = (
    ListMcpToolsOp
    | UndoOp
    | ReviewOp
    | ListBackgroundTerminalsOp
    | TerminateBackgroundTerminalOp
    | CleanBackgroundTerminalsOp
    | GetHistoryEntryRequestOp
    | AddToHistoryOp
)
_STATUS = {
    "connected": "ready",
    "starting": "starting",
    "failed": "failed",
    "authenticationRequired": "failed",  # its toolsError says why
}


class Caller(Protocol):
    """What sends a request and returns its result (`AppServerCore.call`)."""

    async def call(self, method: str, params: Any) -> Any:
        """The result of `method`, or RpcFailure / RemoteError."""
        ...


async def request_op(
    caller: Caller, thread: str, op: RequestOp, turn: str
) -> c.ClientNotice | None:
    """Send `op` as its request; the notice that shows the answer (None: nothing to show),
    under `turn`.

    Raises:
        RpcFailure: The server refused (its message is the line to show).
        RemoteError: The server is gone.
    """
    match op:
        case ListMcpToolsOp():
            listed = await caller.call("mcpServerStatus/list", {"threadId": thread})
            servers = tuple(
                McpServerStatus(
                    name=entry["name"],
                    status=_STATUS.get(entry.get("runtimeStatus") or "", "starting"),
                    error=entry.get("toolsError"),
                    tools=sorted(entry.get("tools") or {}),
                )
                for entry in listed.get("data") or []
                if entry.get("runtimeStatus") != "disabled"  # listed by the server, as 0.169
            )
            return c.McpServersListed(turn, servers)
        case UndoOp():
            undone = await caller.call("thread/undo", {"threadId": thread})
            return n.BackgroundMessage(turn, undone["message"])
        case ReviewOp():
            target = op.target.model_dump(mode="json", exclude_none=True)
            await caller.call("review/start", {"threadId": thread, "target": target})
            return None
        case ListBackgroundTerminalsOp():
            listed = await caller.call("thread/backgroundTerminals/list", {"threadId": thread})
            return c.BackgroundTerminalsListed(turn, _terminals(listed["data"]))
        case TerminateBackgroundTerminalOp():
            which = {"threadId": thread, "processId": op.process_id}
            stopped = await caller.call("thread/backgroundTerminals/terminate", which)
            return _stopped(turn, stopped)
        case CleanBackgroundTerminalsOp():
            stopped = await caller.call("thread/backgroundTerminals/clean", {"threadId": thread})
            return _stopped(turn, stopped)
        case GetHistoryEntryRequestOp():
            entry: dict[str, Any] = {"threadId": thread, "logId": op.log_id, "offset": op.offset}
            read = await caller.call("history/entry/read", entry)
            return c.HistoryEntryFetched(turn, op.offset, op.log_id, read.get("entry"))
        case AddToHistoryOp():
            await caller.call("history/append", {"threadId": thread, "text": op.text})
            return None


def _terminals(entries: list[dict[str, Any]]) -> tuple[BackgroundTerminal, ...]:
    return tuple(
        BackgroundTerminal(
            process_id=entry["processId"],
            command=entry["command"],
            os_pid=entry.get("osPid"),
            elapsed_ms=entry["elapsedMs"],
            last_line=entry.get("lastLine"),
        )
        for entry in entries
    )


def _stopped(turn: str, result: dict[str, Any]) -> c.BackgroundTerminalsStopped:
    stopped = _terminals(result.get("stopped") or [])
    return c.BackgroundTerminalsStopped(turn, stopped, result.get("unknownProcessId"))


def wire_input(items: list[InputItem]) -> list[dict[str, Any]]:
    """The `turn/start` / `turn/steer` input for the composer's items."""
    out: list[dict[str, Any]] = []
    for item in items:
        match item:
            case TextInput():
                out.append({"type": "text", "text": item.text, "text_elements": []})
            case LocalImageInput():
                out.append({"type": "localImage", "path": str(item.path)})
            case ImageInput():
                out.append({"type": "image", "url": item.image_url})
            case _:
                out.append({"type": "text", "text": str(item), "text_elements": []})
    return out


def turn_overrides(op: OverrideTurnContextOp) -> dict[str, Any]:
    """The `turn/start` fields for `/model` and `/approvals` choices (none for unset)."""
    from codex_core.servers.app_server.model_thread import sandbox_to_wire

    fields: dict[str, Any] = {}
    if op.model is not None:
        fields["model"] = op.model
    if op.effort is not None:
        fields["effort"] = op.effort
    if op.approval_policy is not None:
        fields["approvalPolicy"] = op.approval_policy
    if op.sandbox_policy is not None:
        fields["sandboxPolicy"] = sandbox_to_wire(op.sandbox_policy).model_dump(mode="json")
    return fields


_DECISIONS = {
    "approved": "accept",
    "approved_for_session": "acceptForSession",
    "denied": "decline",
    "abort": "cancel",
}
"""The user's answer to an approval as the wire's decision."""


def approval_decision(op: ExecApprovalOp | PatchApprovalOp) -> Any:
    """The `decision` of the response to a command or patch approval request."""
    if isinstance(op, ExecApprovalOp) and op.remember_prefix:
        return {"acceptWithExecpolicyAmendment": {"execpolicy_amendment": op.remember_prefix}}
    return _DECISIONS[op.decision]


def elicitation_result(op: ResolveElicitationOp) -> dict[str, Any]:
    """The response to an MCP server's elicitation request (the content only if accepted)."""
    result: dict[str, Any] = {"action": op.decision}
    if op.decision == "accept" and op.content is not None:
        result["content"] = op.content
    return result
