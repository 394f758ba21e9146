"""`--strict-config`: an unknown key in config.toml or a `-c` override stops the run.

Without the flag an unknown key is a warning (see `codex_core.config.loader`); with it the
first one is reported as Codex 0.169 reports it, the file's line quoted and the key marked:

    Error loading config.toml:
    /home/me/.codex/config.toml:4:1: unknown configuration field `bogus_key`
      |
    4 | bogus_key = 1
      | ^^^^^^^^^

Keys 0.169 knows are never unknown here, even those this codex ignores with a warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from codex_core.config.errors import ConfigError, key_path_of_assignment, locate_key, render_key
from codex_core.config.loader import CONFIG_TOML, read_config_toml
from codex_core.config.overrides import apply_override, parse_cli_overrides
from codex_core.config.schema import sweep_unknown_keys
from codex_core.config.unsupported import drop_unsupported_keys

HEADER = "Error loading config.toml:"


def unknown_keys(data: dict[str, Any]) -> list[tuple[str, ...]]:
    """The key paths of a parsed table that neither this codex nor Codex 0.169 knows."""
    from codex_core.features import catalog

    data = dict(data)
    drop_unsupported_keys(data)
    _, unknown = sweep_unknown_keys(data)
    features = data.get("features")
    if isinstance(features, dict):
        unknown += [("features", name) for name in features if name not in catalog()]
    return unknown


def strict_problem(codex_home: Path, cli_overrides: Sequence[str]) -> str | None:
    """0.169's report of the first unknown key (config.toml first, then `-c`), or None.

    A file or override that does not parse is left to `load_config`, which says why.
    """
    path = Path(codex_home) / CONFIG_TOML
    try:
        text, data = read_config_toml(path)
        pairs = parse_cli_overrides(cli_overrides)
    except ConfigError:
        return None
    found = unknown_keys(data)
    if found:
        return _file_report(path, text, found)
    for key, value in pairs:
        overlay: dict[str, Any] = {}
        try:
            apply_override(overlay, key, value)
        except ConfigError:
            return None
        found = unknown_keys(overlay)
        if found:
            return (
                f"{HEADER} unknown configuration field `{render_key(found[0])}` "
                "in -c/--config override"
            )
    return None


def _file_report(path: Path, text: str, found: list[tuple[str, ...]]) -> str:
    """The report for the unknown key that comes first in the file."""
    lines = text.splitlines()
    located = [(locate_key(text, list(key)) or 0, key) for key in found]
    number, key = min(located, key=lambda pair: pair[0])
    source = lines[number - 1] if 0 < number <= len(lines) else ""
    column, width = _key_span(source)
    pad = " " * len(str(number))
    return "\n".join(
        [
            HEADER,
            f"{path}:{number}:{column}: unknown configuration field `{render_key(key)}`",
            f"{pad} |",
            f"{number} | {source}",
            f"{pad} | {' ' * (column - 1)}{'^' * width}",
        ]
    )


def _key_span(line: str) -> tuple[int, int]:
    """1-based column and width of the key of a `key = value` line (the whole line if none)."""
    start = len(line) - len(line.lstrip())
    if key_path_of_assignment(line.strip()) is not None and "=" in line:
        width = len(line[: line.index("=")].strip())
    else:
        width = len(line.strip())
    return start + 1, max(width, 1)
