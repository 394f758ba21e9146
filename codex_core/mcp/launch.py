"""How to reach one configured server: the stdio child's environment, the HTTP headers."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from codex_core.config.types import McpServerConfig

DEFAULT_STARTUP_TIMEOUT_SEC = 10.0
DEFAULT_TOOL_TIMEOUT_SEC = 60.0

# What `codex mcp add` accepts as a server name (the Codex CLI's rule).
_SERVER_NAME = re.compile(r"^[A-Za-z0-9_\-:@/.]+$")

# Variables a stdio server inherits from codex's environment besides its `env`/`env_vars`.
DEFAULT_ENV_VARS = (
    "HOME",
    "LOGNAME",
    "PATH",
    "SHELL",
    "USER",
    "__CF_USER_TEXT_ENCODING",
    "LANG",
    "LC_ALL",
    "TERM",
    "TMPDIR",
    "TZ",
)


def valid_server_name(name: str) -> bool:
    """Letters, digits and `- _ : @ / .` only."""
    return bool(_SERVER_NAME.match(name))


def startup_timeout(config: McpServerConfig) -> float:
    """Seconds to wait for `initialize` and the tool list."""
    return config.startup_timeout_sec or DEFAULT_STARTUP_TIMEOUT_SEC


def tool_timeout(config: McpServerConfig) -> float:
    """Seconds one tool call may take."""
    return config.tool_timeout_sec or DEFAULT_TOOL_TIMEOUT_SEC


def stdio_env(config: McpServerConfig, environ: Mapping[str, str]) -> dict[str, str]:
    """The child's environment: a few basics, the named `env_vars`, then `env`."""
    env = {k: environ[k] for k in DEFAULT_ENV_VARS if k in environ}
    env.update({k: environ[k] for k in config.env_vars if k in environ})
    env.update(config.env or {})
    return env


class MissingEnvVar(Exception):
    """A header or bearer token names an environment variable that is not set."""


def http_headers(config: McpServerConfig, environ: Mapping[str, str]) -> dict[str, str]:
    """Static headers, headers read from the environment, and the bearer token.

    Raises:
        MissingEnvVar: `bearer_token_env_var` names an unset variable.
    """
    headers = dict(config.http_headers or {})
    for header, var in (config.env_http_headers or {}).items():
        value = environ.get(var)
        if value:  # the Codex CLI skips unset header variables
            headers[header] = value
    if config.bearer_token_env_var:
        token = environ.get(config.bearer_token_env_var)
        if not token:
            raise MissingEnvVar(
                f"environment variable {config.bearer_token_env_var} (bearer_token_env_var) "
                "is not set; export it or remove the key"
            )
        headers["Authorization"] = f"Bearer {token}"
    return headers


@dataclass(frozen=True)
class ToolFilter:
    """`enabled_tools` (an allow-list when set) and `disabled_tools` (a deny-list)."""

    enabled: frozenset[str] | None
    disabled: frozenset[str]

    @classmethod
    def of(cls, config: McpServerConfig) -> ToolFilter:
        """The filter a server entry configures."""
        enabled = frozenset(config.enabled_tools) if config.enabled_tools is not None else None
        return cls(enabled, frozenset(config.disabled_tools or ()))

    def allows(self, tool: str) -> bool:
        """Whether `tool` is offered to the model."""
        if self.enabled is not None and tool not in self.enabled:
            return False
        return tool not in self.disabled
