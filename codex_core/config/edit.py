"""Writing settings back to config.toml (project trust, default model) without losing the rest.

Edits go through `tomlkit`, which keeps the user's comments, ordering and formatting: the one
assignment is replaced in place (keeping its trailing comment), added to its existing table,
or a new table is appended. Every write is atomic (temporary file + rename) and keeps the
file's mode.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import tomlkit
from tomlkit.items import Comment, InlineTable, Table, Whitespace

from codex_core.config.atomic import atomic_write as _atomic_write
from codex_core.config.errors import ConfigError
from codex_core.config.loader import CONFIG_TOML, read_config_toml


def set_project_trust_level(
    codex_home: Path, project: Path, level: Literal["trusted", "untrusted"]
) -> None:
    """Record `projects."<project>".trust_level = level` in CODEX_HOME/config.toml.

    Args:
        codex_home: The CODEX_HOME directory (created if missing).
        project: The project directory; stored as a resolved absolute path.
        level: "trusted" or "untrusted".

    Raises:
        ConfigError: config.toml is malformed or cannot be written.
    """
    if level not in ("trusted", "untrusted"):
        raise ConfigError(f'trust level "{level}" must be "trusted" or "untrusted"')
    key = str(project.expanduser().resolve())
    _edit(codex_home, [(("projects", key, "trust_level"), level)])


def set_default_model(codex_home: Path, model: str, effort: str | None = None) -> None:
    """Set the top-level `model` (and `model_reasoning_effort`) in CODEX_HOME/config.toml.

    Like the Codex CLI, `effort=None` removes a top-level `model_reasoning_effort`, so the
    model's own default applies.

    Raises:
        ConfigError: config.toml is malformed or cannot be written.
    """
    _edit(codex_home, [(("model",), model), (("model_reasoning_effort",), effort)])


def set_hook_state(
    codex_home: Path,
    key: str,
    *,
    trusted_hash: str | None | Literal[False] = False,
    enabled: bool | None = None,
) -> None:
    """Change `[hooks.state."<key>"]` in CODEX_HOME/config.toml, the record Codex CLI 0.169
    keeps too: `trusted_hash` set (a hash), removed (None) or left (False); `enabled = false`
    written (False), removed (True) or left (None).

    Raises:
        ConfigError: config.toml is malformed or cannot be written.
    """
    changes: list[tuple[tuple[str, ...], str | bool | None]] = []
    if trusted_hash is not False:
        changes.append((("hooks", "state", key, "trusted_hash"), trusted_hash))
    if enabled is not None:
        changes.append((("hooks", "state", key, "enabled"), None if enabled else False))
    _edit(codex_home, changes)


def set_feature(codex_home: Path, name: str, value: bool | None) -> None:
    """Set `[features] name = value` in CODEX_HOME/config.toml (None removes the key).

    Raises:
        ConfigError: config.toml is malformed or cannot be written.
    """
    _edit(codex_home, [(("features", name), value)])


def _edit(codex_home: Path, changes: list[tuple[tuple[str, ...], str | bool | None]]) -> None:
    path = codex_home / CONFIG_TOML
    text, _ = read_config_toml(path)  # raises the one-line ConfigError on bad TOML
    doc = tomlkit.parse(text)
    for key, value in changes:
        _set_in(doc, key, value)
    _atomic_write(path, doc.as_string())


def _set_in(doc: tomlkit.TOMLDocument, key: tuple[str, ...], value: str | bool | None) -> None:
    """Set (or with None remove) `key` in a tomlkit document, creating tables as needed."""
    node: Any = doc
    for depth, part in enumerate(key[:-1]):
        child = node.get(part)
        if not isinstance(child, dict):
            if value is None:
                return
            # Intermediate tables (`[projects]`) stay implicit: only the leaf gets a header.
            child = (
                tomlkit.inline_table()
                if isinstance(node, InlineTable)
                else tomlkit.table(is_super_table=depth < len(key) - 2)
            )
            node[part] = child
        node = child
    if value is None:
        if key[-1] in node:
            del node[key[-1]]
    elif key[-1] in node:
        node[key[-1]] = value  # tomlkit keeps the line's comment and spacing
    elif node is doc:
        _add_top_level(doc, key[-1], value)
    else:
        node[key[-1]] = value


def _add_top_level(doc: tomlkit.TOMLDocument, name: str, value: str | bool) -> None:
    """Add a top-level key before the first table and the comments that introduce it.

    After a table header TOML would read it as part of that table; and comments right above
    a header belong to the table, not to the key.
    """
    body = doc.body
    first_table = next(
        (i for i, (k, item) in enumerate(body) if k is not None and isinstance(item, Table)),
        None,
    )
    if first_table is None:
        doc[name] = value
        return
    at = first_table
    while at > 0 and body[at - 1][0] is None and isinstance(body[at - 1][1], Comment):
        at -= 1
    while at > 0 and body[at - 1][0] is None and isinstance(body[at - 1][1], Whitespace):
        at -= 1
    doc._insert_at(at, name, value)  # tomlkit has no public "insert before" for documents
