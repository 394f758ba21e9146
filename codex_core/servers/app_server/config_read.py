"""`config/read`: the server's config as Codex 0.169 reports it (its TUI asks on `--remote`).

0.169 answers with the effective config (every key, defaults filled in), `origins` — for
each leaf the user set, dotted (`tui.alternate_screen`, `mcp_servers.x.args.0`), the layer
it came from and that layer's version — and, with `includeLayers`, the layers themselves.
A layer's version is `sha256:` of its table as compact JSON with sorted keys (observed:
equal to 0.169's for the same file). Ours reports the keys the user's config.toml sets
(the schema's `Config` takes any key, each optional), not every default.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path
from typing import Any

from codex_core.lite import Field
from codex_core.servers.app_server.context import ServerContext
from codex_core.servers.app_server.wire import ParamsModel, WireModel, invalid_request


class ConfigReadParams(ParamsModel):
    """`config/read`: the config as seen from `cwd` (optional), its layers if asked."""

    cwd: str | None = None
    includeLayers: bool = False


class ConfigReadResponse(WireModel):
    """The config, where each value the user set comes from, and maybe the layers."""

    config: dict[str, Any]
    origins: dict[str, dict[str, Any]] = Field(default_factory=dict)
    layers: list[dict[str, Any]] | None = None


class ConfigRequirementsReadParams(ParamsModel):
    """`configRequirements/read` takes no parameters."""


class ConfigRequirementsReadResponse(WireModel):
    """Admin requirements (requirements.toml, MDM): none here, as 0.169 answers without any."""

    requirements: dict[str, Any] | None = None
    supportsIndependentSpeedModes: bool | None = True


def layer_version(table: dict[str, Any]) -> str:
    """A layer's version as 0.169 gives it."""
    text = json.dumps(table, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def leaf_paths(value: Any, prefix: str = "") -> list[str]:
    """Dotted paths of every leaf (array entries by index), as 0.169's `origins` keys."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in leaf_paths(v, f"{prefix}{k}.")]
    if isinstance(value, list) and value:
        return [p for i, v in enumerate(value) for p in leaf_paths(v, f"{prefix}{i}.")]
    return [prefix[:-1]] if prefix else []


def read_config(codex_home: Path, include_layers: bool) -> ConfigReadResponse:
    """The user layer (CODEX_HOME/config.toml) as `config/read` reports it.

    Raises:
        RpcError: config.toml cannot be read or parsed.
    """
    path = codex_home / "config.toml"
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise invalid_request(f"could not read {path}: {err}") from None
    plain = json.loads(json.dumps(table, default=str))  # TOML dates as strings
    name = {"type": "user", "file": str(path), "profile": None}
    version = layer_version(plain)
    origins = {leaf: {"name": name, "version": version} for leaf in leaf_paths(plain)}
    layers = [{"name": name, "version": version, "config": plain}] if include_layers else None
    return ConfigReadResponse(config=plain, origins=origins, layers=layers)


async def config_read(server: ServerContext, params: ConfigReadParams) -> ConfigReadResponse:
    """`config/read` over the user's config.toml."""
    from codex_core.frontend import find_codex_home

    return read_config(find_codex_home(), params.includeLayers)


async def config_requirements_read(
    server: ServerContext, params: ConfigRequirementsReadParams
) -> ConfigRequirementsReadResponse:
    """`configRequirements/read`: no requirements (0.169 with none configured answers
    `{"supportsIndependentSpeedModes": true, "requirements": null}`)."""
    return ConfigRequirementsReadResponse()
