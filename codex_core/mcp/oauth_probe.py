"""Whether an HTTP MCP server wants OAuth: the `auth_status` of `codex mcp list`.

As the Codex CLI 0.169 finds out: GET the server's URL, then look for OAuth protected-
resource metadata (RFC 9728: the `resource_metadata` a 401 names, then the well-known paths
after, before and without the URL's path) and authorization-server metadata (RFC 8414 and
OpenID discovery, at the servers the resource names or at the MCP server's own origin).
Metadata found: `not_logged_in` (codex stores no OAuth tokens); none: `unsupported`; the
server cannot be reached: `unknown`.

`auth_status` is the whole rule for one configured server, as 0.169 answers both in
`codex mcp list --json` and in the app-server's `mcpServerStatus/list` (observed side by
side with servers built with the `mcp` SDK): a stdio or disabled server is `unsupported`
without a probe; an HTTP server given credentials — `bearer_token_env_var` (set or not) or
an `Authorization` header (any case, any scheme; from `env_http_headers` only when its
variable is set) — is `bearer_token`, also without a probe; any other is probed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

import httpx

from codex_core import __version__

if TYPE_CHECKING:
    from codex_core.config.types import McpServerConfig

AuthStatus = Literal["unsupported", "not_logged_in", "bearer_token", "o_auth", "unknown"]
PROBE_TIMEOUT_SEC = 5.0
_RESOURCE_METADATA = re.compile(r'resource_metadata="([^"]+)"')


def auth_status(config: McpServerConfig, environ: Mapping[str, str]) -> AuthStatus:
    """The auth status 0.169 reports for a configured server (probes an HTTP one that has
    no credentials; never raises)."""
    if config.url is None or not config.enabled:
        return "unsupported"
    if config.bearer_token_env_var or _sends_authorization(config, environ):
        return "bearer_token"
    from codex_core.mcp.launch import http_headers  # no bearer variable: it cannot raise

    return probe_auth_status(config.url, http_headers(config, environ))


def _sends_authorization(config: McpServerConfig, environ: Mapping[str, str]) -> bool:
    """Whether the configured headers carry an `Authorization` header."""
    if any(name.lower() == "authorization" for name in config.http_headers or {}):
        return True
    return any(
        name.lower() == "authorization" and environ.get(var)
        for name, var in (config.env_http_headers or {}).items()
    )


def probe_auth_status(url: str, headers: Mapping[str, str] | None = None) -> AuthStatus:
    """The auth status of the server at `url` (never raises)."""
    sent = {
        "user-agent": f"codex-mcp-client/{__version__}",
        "mcp-protocol-version": "2024-11-05",
        **(headers or {}),
    }
    try:
        with httpx.Client(timeout=PROBE_TIMEOUT_SEC, headers=sent) as client:
            first = client.get(url)
            named = _RESOURCE_METADATA.search(first.headers.get("www-authenticate", ""))
            resource = _first_json(
                client,
                [named.group(1)] if named else [],
                _well_known(url, "oauth-protected-resource"),
            )
            servers = resource.get("authorization_servers") if resource else None
            issuers = (
                [s for s in servers if isinstance(s, str)] if isinstance(servers, list) else []
            )
            for issuer in issuers or [url]:
                found = _first_json(client, [], _authorization_server_paths(issuer))
                if found and "authorization_endpoint" in found and "token_endpoint" in found:
                    return "not_logged_in"
    except (httpx.HTTPError, ValueError):
        return "unknown"
    return "unsupported"


def _origin_and_path(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}", parts.path.rstrip("/")


def _well_known(url: str, name: str) -> list[str]:
    origin, path = _origin_and_path(url)
    candidates = [f"{origin}/.well-known/{name}{path}", f"{origin}{path}/.well-known/{name}"]
    candidates.append(f"{origin}/.well-known/{name}")
    return list(dict.fromkeys(candidates))


def _authorization_server_paths(issuer: str) -> list[str]:
    origin, path = _origin_and_path(issuer)
    candidates = [
        f"{origin}/.well-known/oauth-authorization-server{path}",
        f"{origin}/.well-known/openid-configuration{path}",
        f"{origin}{path}/.well-known/openid-configuration",
        f"{origin}/.well-known/oauth-authorization-server",
    ]
    return list(dict.fromkeys(candidates))


def _first_json(client: httpx.Client, first: list[str], rest: list[str]) -> dict[str, Any] | None:
    """The first candidate that answers 200 with a JSON object."""
    for candidate in dict.fromkeys([*first, *rest]):
        try:
            answer = client.get(candidate)
        except httpx.HTTPError:
            continue
        if answer.status_code != 200:
            continue
        try:
            body = answer.json()
        except ValueError:
            continue
        if isinstance(body, dict):
            return body
    return None
