"""An MCP server (the `mcp` SDK over streamable HTTP) that wants OAuth, for the auth-status tests.

`python oauth_server.py PORT`: FastMCP with an authorization-server provider, so the SDK
serves what an OAuth-protected MCP server advertises — `/mcp` answers 401 with a
`resource_metadata` link, `/.well-known/oauth-protected-resource/mcp` names this origin as
the authorization server, `/.well-known/oauth-authorization-server` has its endpoints. No
client can log in (the provider has no clients); the one token it accepts is `TOKEN`, so a
configured bearer token reaches the `echo` tool.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.fastmcp import FastMCP

TOKEN = "test-bearer-token"


class _Provider:
    """Just enough of `OAuthAuthorizationServerProvider`: no clients, one known token."""

    async def get_client(self, client_id: str) -> None:
        return None

    async def load_access_token(self, token: str) -> AccessToken | None:
        if token != TOKEN:
            return None
        return AccessToken(token=token, client_id="test", scopes=[], expires_at=None)

    def __getattr__(self, name: str) -> Any:  # authorize, register_client, ...: never used
        raise AttributeError(name)


def main() -> None:
    port = int(sys.argv[1])
    origin = f"http://127.0.0.1:{port}"
    auth = AuthSettings(
        issuer_url=origin,  # type: ignore[arg-type]
        resource_server_url=f"{origin}/mcp",  # type: ignore[arg-type]
        validate_token_resource=False,
    )
    server = FastMCP("oauth-test", auth=auth, auth_server_provider=_Provider())  # type: ignore[arg-type]
    server.settings.host, server.settings.port = "127.0.0.1", port
    server.settings.log_level = "WARNING"

    @server.tool()
    def echo(text: str) -> str:
        """Echo the text."""
        return text

    server.run("streamable-http")


def serving(port: int) -> Iterator[str]:
    """Run this server on `port` until the generator is closed; yields its MCP URL."""
    from tests.support.http_process import serve_until_closed  # (run as a script: not needed)

    argv = [sys.executable, str(Path(__file__)), str(port)]
    yield from serve_until_closed(argv, f"http://127.0.0.1:{port}/mcp")


if __name__ == "__main__":
    main()
