"""`codex mcp list --json` `auth_status` for HTTP servers, as codex-rust 0.169 reports it.

0.169 probes each HTTP server without a bearer token for OAuth metadata: a real MCP server
without OAuth is `unsupported`, one whose resource names an authorization server with
metadata is `not_logged_in`, one that cannot be reached is `unknown`.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.mcp.conftest import write_config


class _OAuthMetadata(BaseHTTPRequestHandler):
    """A server that wants OAuth: RFC 9728 and RFC 8414 metadata, 401 elsewhere."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        documents = {
            "/.well-known/oauth-protected-resource/mcp": {
                "resource": f"{origin}/mcp",
                "authorization_servers": [origin],
            },
            "/.well-known/oauth-authorization-server": {
                "issuer": origin,
                "authorization_endpoint": f"{origin}/authorize",
                "token_endpoint": f"{origin}/token",
            },
        }
        body = json.dumps(documents.get(self.path, {})).encode()
        self.send_response(200 if self.path in documents else 401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def oauth_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _OAuthMetadata)
    # shutdown() waits for serve_forever to poll: every 20 ms, not the default 0.5 s
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/mcp"
    server.shutdown()
    server.server_close()


def _listed_auth(codex_bin: Path) -> dict[str, str]:
    """`codex mcp list --json`: each server's auth_status."""
    done = subprocess.run(
        [str(codex_bin), "mcp", "list", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ),
    )
    assert done.returncode == 0, done.stderr
    return {entry["name"]: entry["auth_status"] for entry in json.loads(done.stdout)}


def test_mcp_list_json_probes_http_servers_for_oauth(
    codex_bin: Path, codex_home: Path, http_server: str, oauth_server: str
) -> None:
    write_config(
        codex_home,
        f'[mcp_servers.plain]\nurl = "{http_server}"\n'
        f'[mcp_servers.oauth]\nurl = "{oauth_server}"\n'
        '[mcp_servers.gone]\nurl = "http://127.0.0.1:9/mcp"\n'
        '[mcp_servers.token]\nurl = "http://127.0.0.1:9/mcp"\nbearer_token_env_var = "T"\n'
        '[mcp_servers.local]\ncommand = "echo"\n',
    )
    assert _listed_auth(codex_bin) == {
        "gone": "unknown",
        "local": "unsupported",
        "oauth": "not_logged_in",
        "plain": "unsupported",
        "token": "bearer_token",
    }


def test_mcp_list_json_credentials_in_headers_and_disabled_servers(
    codex_bin: Path, codex_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a probe, as codex-rust 0.169 answered for the same config: an `Authorization`
    header (any scheme, any case; from env_http_headers when its variable is set) or a
    bearer variable (even unset) is `bearer_token`; a disabled server is `unsupported`."""
    monkeypatch.setenv("MCP_H", "Bearer z")
    monkeypatch.delenv("MCP_UNSET_VARIABLE", raising=False)
    gone = 'url = "http://127.0.0.1:9/mcp"\n'
    write_config(
        codex_home,
        f'[mcp_servers.header]\n{gone}http_headers = {{ Authorization = "Basic x" }}\n'
        f'[mcp_servers.env_header]\n{gone}env_http_headers = {{ authorization = "MCP_H" }}\n'
        f"[mcp_servers.unset_header]\n{gone}"
        'env_http_headers = { Authorization = "MCP_UNSET_VARIABLE" }\n'
        f'[mcp_servers.unset_token]\n{gone}bearer_token_env_var = "MCP_UNSET_VARIABLE"\n'
        f"[mcp_servers.disabled]\n{gone}enabled = false\n",
    )
    assert _listed_auth(codex_bin) == {
        "disabled": "unsupported",
        "env_header": "bearer_token",
        "header": "bearer_token",
        "unset_header": "unknown",
        "unset_token": "bearer_token",
    }
