"""Writing settings back to config.toml (project trust, default model) without losing the rest.

Edits are textual and minimal: the one assignment is replaced (keeping its trailing comment),
inserted into its existing table, or a new table is appended. The result is parsed again and
compared with the intended document; only if that check fails (an unusual layout such as
inline tables) is the file regenerated with tomli-w, which keeps every value but drops
comments. Every write is atomic (temporary file + rename) and keeps the file's mode.
"""

from __future__ import annotations

import copy
import logging
import os
import tempfile
import tomllib
from pathlib import Path
from typing import Any, Literal

import tomli_w

from codex_core.config.errors import (
    ConfigError,
    key_path_of_assignment,
    key_path_of_header,
    render_key,
    render_value,
)
from codex_core.config.loader import CONFIG_TOML, read_config_toml

log = logging.getLogger(__name__)


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


def _edit(codex_home: Path, changes: list[tuple[tuple[str, ...], str | None]]) -> None:
    path = codex_home / CONFIG_TOML
    text, data = read_config_toml(path)
    expected = copy.deepcopy(data)
    for key, value in changes:
        _set_in(expected, key, value)
    new_text = text
    for key, value in changes:
        new_text = _edit_text(new_text, key, value)
    try:
        ok = tomllib.loads(new_text) == expected
    except tomllib.TOMLDecodeError:
        ok = False
    if not ok:
        log.warning("rewriting %s without its comments: its layout is too unusual to edit", path)
        new_text = tomli_w.dumps(expected)
    _atomic_write(path, new_text)


def _set_in(doc: dict[str, Any], key: tuple[str, ...], value: str | None) -> None:
    node = doc
    for part in key[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = {}
            node[part] = child
        node = child
    if value is None:
        node.pop(key[-1], None)
    else:
        node[key[-1]] = value


def _split_comment(rest: str) -> tuple[str, str] | None:
    """Split the text after `=` into (value, trailing comment); None if not one line."""
    candidates = [i for i, c in enumerate(rest) if c == "#"] + [len(rest)]
    for index in candidates:
        try:
            tomllib.loads(f"v = {rest[:index]}")
        except tomllib.TOMLDecodeError:
            continue
        return rest[:index], rest[index:]
    return None


def _edit_text(text: str, key: tuple[str, ...], value: str | None) -> str:
    lines = text.splitlines(keepends=True)
    table: tuple[str, ...] = ()
    table_line: int | None = 0 if len(key) == 1 else None
    first_header: int | None = None
    assignment = f"{render_key([key[-1]])} = {render_value(value)}"
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("["):
            header = key_path_of_header(stripped)
            if header is None:
                continue
            if first_header is None:
                first_header = index
            table = tuple(header)
            if table == key[:-1]:
                table_line = index
            continue
        if table != key[:-1] or not stripped or stripped.startswith("#"):
            continue
        if tuple(key_path_of_assignment(stripped) or ()) != key[-1:]:
            continue
        if value is None:
            return "".join(lines[:index] + lines[index + 1 :])
        head, _, rest = line.partition("=")
        split = _split_comment(rest.rstrip("\r\n"))
        if split is None:
            return text  # a multi-line value: let the verification fall back
        old_value, comment = split
        spacing = old_value[: len(old_value) - len(old_value.lstrip())] or " "
        trailing = old_value[len(old_value.rstrip()) :]
        ending = line[len(line.rstrip("\r\n")) :] or "\n"
        lines[index] = f"{head}={spacing}{render_value(value)}{trailing}{comment}{ending}"
        return "".join(lines)
    if value is None:
        return text
    if len(key) == 1:
        # Top-level keys go before the first table, above the comments that introduce it.
        at = len(lines) if first_header is None else first_header
        if first_header is not None:
            while at > 0 and lines[at - 1].lstrip().startswith("#"):
                at -= 1
            while at > 0 and not lines[at - 1].strip():
                at -= 1
        if at > 0 and not lines[at - 1].endswith("\n"):
            lines[at - 1] += "\n"
        lines.insert(at, assignment + "\n")
        return "".join(lines)
    if table_line is not None:
        lines.insert(table_line + 1, assignment + "\n")
        return "".join(lines)
    prefix = text if not text or text.endswith("\n") else text + "\n"
    separator = "\n" if prefix.strip() else ""
    return f"{prefix}{separator}[{render_key(list(key[:-1]))}]\n{assignment}\n"


def _atomic_write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
        fd, tmp = tempfile.mkstemp(prefix=".config.toml.", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as err:
        raise ConfigError(
            f"{path}: cannot write it ({err.strerror}); check its permissions"
        ) from err
