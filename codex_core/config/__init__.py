"""Configuration: CODEX_HOME, config.toml, profiles, `-c` overrides and the resolved `Config`.

Precedence, highest first: dedicated CLI flag (`ConfigOverrides`) > `-c key=value` > the
active profile > config.toml > built-in default. Every user-facing problem is a
`ConfigError` whose message is one line.

Names load on first use, so mapping flags onto `ConfigOverrides` does not load pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codex_core.lazy import lazy_attributes

if TYPE_CHECKING:
    from codex_core.config.edit import set_default_model, set_project_trust_level
    from codex_core.config.errors import ConfigError
    from codex_core.config.flags import ConfigOverrides
    from codex_core.config.loader import CONFIG_TOML, find_codex_home, load_config
    from codex_core.config.overrides import parse_cli_overrides
    from codex_core.config.schema import ConfigToml, known_key_patterns
    from codex_core.config.shell_env import ShellEnvironmentPolicy, create_env
    from codex_core.config.types import (
        DEFAULT_MODEL,
        DEFAULT_OSS_MODEL,
        Config,
        HistoryConfig,
        McpServerConfig,
        ProjectConfig,
    )

_MODULE_OF = {
    "set_default_model": "edit",
    "set_project_trust_level": "edit",
    "ConfigError": "errors",
    "CONFIG_TOML": "loader",
    "find_codex_home": "loader",
    "load_config": "loader",
    "parse_cli_overrides": "overrides",
    "ConfigToml": "schema",
    "known_key_patterns": "schema",
    "ShellEnvironmentPolicy": "shell_env",
    "create_env": "shell_env",
    "DEFAULT_MODEL": "types",
    "DEFAULT_OSS_MODEL": "types",
    "Config": "types",
    "ConfigOverrides": "flags",
    "HistoryConfig": "types",
    "McpServerConfig": "types",
    "ProjectConfig": "types",
}

__all__ = [
    "CONFIG_TOML",
    "DEFAULT_MODEL",
    "DEFAULT_OSS_MODEL",
    "Config",
    "ConfigError",
    "ConfigOverrides",
    "ConfigToml",
    "HistoryConfig",
    "McpServerConfig",
    "ProjectConfig",
    "ShellEnvironmentPolicy",
    "create_env",
    "find_codex_home",
    "known_key_patterns",
    "load_config",
    "parse_cli_overrides",
    "set_default_model",
    "set_project_trust_level",
]


__getattr__ = lazy_attributes(__name__, _MODULE_OF, globals())
