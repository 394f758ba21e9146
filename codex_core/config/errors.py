"""ConfigError and the one-line messages it carries (TOML syntax, bad values, key paths).

Exception tree: `ConfigError(Exception)` is the only error this package raises; `str()` of it
is a single line that names the file or `-c` flag, the key (and line when known) and the fix.
"""

from __future__ import annotations

import functools
import json
import re
import tomllib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails


# Patterns compile on first use: not on the way to the first model request.
@functools.cache
def _bare_key() -> re.Pattern[str]:
    return re.compile(r"^[A-Za-z0-9_-]+$")


@functools.cache
def _toml_position() -> re.Pattern[str]:
    return re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


@functools.cache
def _toml_at_end() -> re.Pattern[str]:
    return re.compile(r"\s*\(at end of document\)\s*$")


class ConfigError(Exception):
    """A configuration problem the user must fix; the message is one line."""


def render_key(path: Sequence[str | int]) -> str:
    """A key path as TOML would spell it: `a.b`, `projects."/x/y".trust_level`, `notify[0]`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        segment = part if _bare_key().match(part) else json.dumps(part, ensure_ascii=False)
        out += f".{segment}" if out else segment
    return out


def render_value(value: Any) -> str:
    """A short TOML-looking rendering of a value for an error message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(render_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{render_key([k])} = {render_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    return str(value)


def toml_syntax_error(source: str, err: tomllib.TOMLDecodeError) -> ConfigError:
    """`<file>:<line>: invalid TOML: <reason> (column N)` from tomllib's message."""
    message = str(err)
    line = ""
    where = _toml_position().search(message)
    if where:
        message = message[: where.start()]
        line = f":{where.group(1)}"
        message += f" (column {where.group(2)})"
    elif _toml_at_end().search(message):
        message = _toml_at_end().sub(" at the end of the file", message)
    message = message[:1].lower() + message[1:]
    return ConfigError(f"{source}{line}: invalid TOML: {message}; fix the syntax and try again")


def _choices(expected: str) -> list[str]:
    return re.findall(r"'([^']*)'", expected)


def describe_problem(error: ErrorDetails) -> tuple[str, str]:
    """Two phrasings of one pydantic error: "is not one of a, b" and "must be a or b"."""
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "literal_error":
        options = _choices(str(ctx.get("expected", "")))
        if len(options) == 2:
            return (
                f'is not "{options[0]}" or "{options[1]}"',
                f'must be "{options[0]}" or "{options[1]}"',
            )
        listed = ", ".join(options)
        return f"is not one of {listed}", f"must be one of {listed}"
    simple = {
        "missing": ("is missing", "is required"),
        "int_type": ("is not an integer", "must be an integer"),
        "int_from_float": ("is not an integer", "must be an integer"),
        "float_type": ("is not a number", "must be a number"),
        "bool_type": ("is not a boolean", "must be true or false"),
        "string_type": ("is not a string", "must be a string"),
        "list_type": ("is not an array", "must be an array"),
        "dict_type": ("is not a table", "must be a table"),
        "model_type": ("is not a table", "must be a table"),
        "model_attributes_type": ("is not a table", "must be a table"),
    }
    if kind in simple:
        return simple[kind]
    detail = str(error.get("msg", "is invalid"))
    detail = detail.replace("Input should be ", "").rstrip(".")
    return f"is invalid ({detail})", f"must be {detail}"


def locate_key(text: str, path: Sequence[str]) -> int | None:
    """Best-effort 1-based line of the assignment that sets `path` (or its nearest parent)."""
    table: list[str] = []
    best: tuple[int, int] | None = None  # (matched depth, line)
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("["):
            header = key_path_of_header(stripped)
            if header is not None:
                table = header
                here = table
            else:
                continue
        else:
            key = key_path_of_assignment(stripped)
            if key is None:
                continue
            here = [*table, *key]
        depth = len(here)
        if list(path[:depth]) == here and (best is None or depth > best[0]):
            best = (depth, number)
    return best[1] if best else None


def _descend(doc: dict[str, Any], leaf: Any) -> list[str] | None:
    path: list[str] = []
    node: Any = doc
    while isinstance(node, dict) and len(node) == 1:
        key, node = next(iter(node.items()))
        path.append(key)
        if isinstance(node, list) and node and isinstance(node[-1], dict):
            node = node[-1]
        if node is leaf or node == leaf:
            return path
    return path if leaf is None else None


def key_path_of_header(line: str) -> list[str] | None:
    """The table path of a `[a."b"]` or `[[a.b]]` header line, or None."""
    try:
        doc = tomllib.loads(line)
    except tomllib.TOMLDecodeError:
        return None
    return _descend(doc, None)


def key_path_of_assignment(line: str) -> list[str] | None:
    """The dotted key of a `key = value` line (the value may be incomplete), or None."""
    sentinel = 7_777_777_777
    for index, char in enumerate(line):
        if char != "=":
            continue
        try:
            doc = tomllib.loads(f"{line[:index]}= {sentinel}")
        except tomllib.TOMLDecodeError:
            continue
        return _descend(doc, sentinel)
    return None
