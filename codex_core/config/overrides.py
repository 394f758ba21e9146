"""`-c key=value` overrides: dotted keys, TOML values, and applying them to the parsed file."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from typing import Any

from codex_core.config.errors import ConfigError, key_path_of_assignment

_VALUE_SLOT = "__codex_override_value__"


def split_dotted_key(key: str) -> list[str]:
    """The segments of a dotted key; quoted segments (`projects."/a/b"`) may contain dots.

    Raises:
        ConfigError: The key is empty or has an empty segment.
    """
    path = key_path_of_assignment(f"{key} =")
    if path is None:
        # Not a valid TOML key (spaces, odd characters): split on dots like the Codex CLI.
        path = [part.strip() for part in key.split(".")]
    if not path or any(part == "" for part in path):
        raise ConfigError(f"-c {key}: the key is empty or has an empty part; use -c a.b=value")
    return path


def parse_override_value(raw: str) -> Any:
    """A `-c` value as TOML; text that is not a TOML value becomes a plain string."""
    try:
        doc = tomllib.loads(f"{_VALUE_SLOT} = {raw}")
    except tomllib.TOMLDecodeError:
        doc = {}
    if len(doc) == 1 and _VALUE_SLOT in doc:
        return doc[_VALUE_SLOT]
    return raw.strip().strip("\"'")


def _split_pair(pair: str) -> tuple[str, str, str]:
    # The first `=` after a valid TOML key, so a quoted key may itself contain `=`.
    for index, char in enumerate(pair):
        if char == "=" and key_path_of_assignment(f"{pair[:index]} =") is not None:
            return pair[:index].strip(), "=", pair[index + 1 :]
    key, sep, raw = pair.partition("=")
    return key.strip(), sep, raw


def parse_cli_overrides(pairs: Sequence[str]) -> list[tuple[str, Any]]:
    """Parse `-c` arguments into (dotted key, value) pairs, in order.

    Args:
        pairs: The raw `key=value` strings.

    Returns:
        `[("a.b", 1), ...]`; a later pair for the same key wins when applied.

    Raises:
        ConfigError: An argument has no `=` or an empty key.
    """
    parsed: list[tuple[str, Any]] = []
    for pair in pairs:
        key, sep, raw = _split_pair(pair)
        if not sep or not key:
            raise ConfigError(f"-c {pair}: expected key=value, for example -c model=o3")
        split_dotted_key(key)
        parsed.append((key, parse_override_value(raw)))
    return parsed


def apply_override(root: dict[str, Any], key: str, value: Any) -> None:
    """Set `key` (dotted) to `value` in `root`, creating or replacing tables on the way."""
    path = split_dotted_key(key)
    node = root
    for part in path[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = {}
            node[part] = child
        node = child
    node[path[-1]] = value
