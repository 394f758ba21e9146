"""`/mcp` in the TUI over the wire: the server now lists disabled servers and says
`authenticationRequired` as 0.169 does; the TUI still shows the enabled servers only (as
before) and an OAuth server it cannot reach as failed, with the server's reason."""

from __future__ import annotations

import asyncio
from typing import Any

from codex_core.items.client import McpServersListed
from codex_core.protocol import ListMcpToolsOp
from codex_tui.app.app_server_ops import request_op


class _Answers:
    """A caller answering `mcpServerStatus/list` with a recorded-shape listing."""

    async def call(self, method: str, params: Any) -> Any:
        assert (method, params) == ("mcpServerStatus/list", {"threadId": "t1"})
        entry = {"toolsError": None, "tools": {}}
        return {
            "data": [
                {**entry, "name": "off", "runtimeStatus": "disabled"},
                {
                    **entry,
                    "name": "sso",
                    "runtimeStatus": "authenticationRequired",
                    "toolsError": "HTTP 401",
                },
                {**entry, "name": "up", "runtimeStatus": "connected", "tools": {"echo": {}}},
            ]
        }


def test_disabled_servers_stay_out_and_auth_required_is_failed() -> None:
    listed = asyncio.run(request_op(_Answers(), "t1", ListMcpToolsOp(), "turn-1"))
    assert isinstance(listed, McpServersListed)
    shown = [(s.name, s.status, s.error, s.tools) for s in listed.servers]
    assert shown == [("sso", "failed", "HTTP 401", []), ("up", "ready", None, ["echo"])]
