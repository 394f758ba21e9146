"""Side by side with codex-rust 0.169: under `granular` with `mcp_elicitations = false` an MCP
server's question is declined without a `mcpServer/elicitation/request`, and the model reads
the server's answer to the decline; with `true` the client is asked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.compat.conftest import MODEL, Cli
from tests.mcp.conftest import namespace_call
from tests.mcp.reference import ReferenceServers, reference_servers
from tests.servers.rpc_client import AppServerClient
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e
__all__ = ["reference_servers"]


def _run(cli: Cli, cwd: Path, servers: ReferenceServers, asks: bool) -> dict[str, Any]:
    flag = "true" if asks else "false"
    (cli.home / "config.toml").write_text(
        f"approval_policy = {{ granular = {{ sandbox_approval = true, rules = true, "
        f"mcp_elicitations = {flag} }} }}\n" + servers.toml("everything", servers.everything)
    )
    steps = [namespace_call("mcp__everything", "trigger_elicitation_request", {}, "e1")]
    with ModelServer([*steps, turn(message("ok"))]) as server:
        flags = [*server.cli_flags(), "-c", MODEL]
        argv = [cli.binary, *flags, "app-server", "--listen", "stdio://"]
        client = AppServerClient(cli.home, cwd, flags, None, argv=argv)
        client.initialize()
        started = client.call("thread/start", {"cwd": str(cwd)}, timeout=90)["result"]
        go = {"threadId": started["thread"]["id"], "input": [{"type": "text", "text": "go"}]}
        client.call("turn/start", go, timeout=60)
        asked: list[str] = []
        while True:
            msg = client.next(timeout=90)
            if "id" in msg and "method" in msg:
                asked.append(msg["method"])
                client.send({"id": msg["id"], "result": {"action": "decline"}})
            if msg.get("method") == "turn/completed":
                break
        client.close()
        output = [
            part["text"]
            for item in server.bodies[-1]["input"]
            if item.get("type") == "function_call_output"
            for part in item["output"]
            if not part["text"].startswith("Wall time")
        ]
    return {"asked": asked, "output": output, "approval": json.dumps(started["approvalPolicy"])}


@pytest.mark.parametrize("asks", [False, True])
def test_granular_mcp_elicitations_as_0169(
    ours: Cli, rust: Cli, project: Path, reference_servers: ReferenceServers, asks: bool
) -> None:
    theirs = _run(rust, project, reference_servers, asks)
    mine = _run(ours, project, reference_servers, asks)
    assert mine == theirs
    assert theirs["asked"] == (["mcpServer/elicitation/request"] if asks else [])
