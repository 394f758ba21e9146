"""Profiles as in Codex 0.169: `-p NAME` layers `$CODEX_HOME/NAME.config.toml` over config.toml.

The older form is legacy, as observed with 0.169: a top-level `profile = "NAME"` selector
refuses start-up (use `-p NAME`); a `[profiles.NAME]` table refuses start-up when `-p NAME`
names it (the message says where to move it) and is otherwise ignored — with one warning
here, where 0.169 says nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from codex_core.config.errors import ConfigError


def profile_path(codex_home: Path, name: str) -> Path:
    """Where the profile `name` lives: `$CODEX_HOME/<name>.config.toml`."""
    return Path(codex_home) / f"{name}.config.toml"


def merge_tables(base: dict[str, Any], top: dict[str, Any]) -> None:
    """Deep-merge `top` into `base`: tables merge key by key, other values replace."""
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merge_tables(base[key], value)
        else:
            base[key] = value


def layer_profile(
    data: dict[str, Any],
    codex_home: Path,
    config_path: Path,
    name: str | None,
    read: Callable[[Path], tuple[str, dict[str, Any]]],
) -> list[str]:
    """Apply profile `name` (if any) to the parsed config.toml `data`, in place.

    Args:
        data: config.toml as parsed; legacy `profile`/`profiles` keys are removed from it.
        codex_home: The CODEX_HOME directory.
        config_path: config.toml's path, for messages.
        name: The `-p/--profile` value, or None.
        read: Reads and parses a TOML file (a missing file reads as empty).

    Returns:
        Warnings (at most one about legacy profiles, one about a missing profile file).

    Raises:
        ConfigError: `-p NAME` while config.toml still defines NAME the legacy way, or the
            profile file is unreadable or invalid.
    """
    legacy_tables = data.pop("profiles", None)
    selector = data.pop("profile", None)
    if selector is not None:
        shown = selector if isinstance(selector, str) else "NAME"
        raise ConfigError(
            f'{config_path}: profile = "{shown}" is no longer supported; delete it, put the '
            f"profile's settings in {profile_path(codex_home, shown)} and pass --profile {shown}"
        )
    legacy_names = set(legacy_tables) if isinstance(legacy_tables, dict) else set()
    warnings: list[str] = []
    if name is not None and name in legacy_names:
        target = profile_path(codex_home, name)
        raise ConfigError(
            f"--profile {name}: {config_path} still defines this profile the old way "
            f"([profiles.{name}]); move those settings into {target} and delete the table "
            "from config.toml"
        )
    if legacy_names:
        listed = ", ".join(sorted(legacy_names))
        warnings.append(
            f"{config_path}: legacy profiles ({listed}) are ignored; move each into "
            f"{codex_home}/<name>.config.toml and select it with -p <name>"
        )
    if name is None:
        return warnings
    path = profile_path(codex_home, name)
    if not path.is_file():
        warnings.append(f"--profile {name}: {path} does not exist; using config.toml alone")
        return warnings
    _text, layer = read(path)
    merge_tables(data, layer)
    return warnings
