"""`mcpServerStatus/list`'s `authStatus` and `runtimeStatus` as codex-rust 0.169 answers them
(recorded in tests/fixtures/mcp_auth_status_0169.json with the same servers: the `mcp` SDK's
streamable HTTP server with and without OAuth, the stdio test server, an unreachable URL):
credentials in the config are `bearerToken`, an OAuth-advertising server without them
`notLoggedIn` (and `authenticationRequired` in a thread), a disabled server is listed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import free_port
from tests.mcp.oauth_server import serving
from tests.servers.conftest import AppServerFactory

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "mcp_auth_status_0169.json"
PAGES = FIXTURE.with_name("mcp_status_pages_0169.json")


@pytest.fixture
def servers(mcp_http_server: str) -> Iterator[tuple[str, str]]:
    """The plain (shared, `mcp_http_server`) and the OAuth-protected HTTP servers' URLs."""
    oauth = serving(free_port())
    try:
        yield mcp_http_server, next(oauth)
    finally:
        oauth.close()


def _statuses(data: list[dict[str, Any]]) -> dict[str, list[Any]]:
    return {e["name"]: [e["authStatus"], e["runtimeStatus"], bool(e["tools"])] for e in data}


def test_auth_and_runtime_status_as_0169(
    app_server: AppServerFactory,
    codex_home: Path,
    servers: tuple[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorded = json.loads(FIXTURE.read_text())
    for name, value in recorded["environment"].items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("MCP_UNSET_VARIABLE", raising=False)
    plain, oauth = servers
    config = "".join(recorded["config"]).replace("{plain}", plain).replace("{oauth}", oauth)
    # The recorded 'local' stdio server ("unsupported") is left out: its start is slow and
    # test_app_server_tui_methods covers it.
    for listing in ("withoutThread", "inThread"):
        recorded[listing].pop("local")
    (codex_home / "config.toml").write_text(config)
    client = app_server()
    client.initialize()
    without = client.call("mcpServerStatus/list", {}, timeout=90)["result"]["data"]
    assert _statuses(without) == recorded["withoutThread"]
    thread = client.call("thread/start", {}, timeout=60)["result"]["thread"]["id"]
    within = client.call("mcpServerStatus/list", {"threadId": thread}, timeout=90)["result"]
    assert _statuses(within["data"]) == recorded["inThread"]
    [disabled] = [e for e in within["data"] if e["name"] == "oauth_disabled"]
    assert disabled["httpOrigin"] == oauth.removesuffix("/mcp") and disabled["toolsError"] is None


def test_pages_as_0169(app_server: AppServerFactory, codex_home: Path) -> None:
    """`cursor` (an index) and `limit` page the servers by name, disabled ones included; a bad
    or too large cursor is 0.169's -32600 (recorded in tests/fixtures/mcp_status_pages_0169.json)."""
    recorded = json.loads(PAGES.read_text())
    (codex_home / "config.toml").write_text(recorded["config"])
    client = app_server()
    client.initialize()
    for params, expected in recorded["pages"]:
        answer = client.call(
            "mcpServerStatus/list", {**params, "detail": "toolsAndAuthOnly"}, timeout=60
        )
        if "error" in expected:
            assert answer["error"] == expected["error"], params
        else:
            result = answer["result"]
            names = [entry["name"] for entry in result["data"]]
            assert (names, result["nextCursor"]) == (expected["names"], expected["nextCursor"])
