"""Dump values the way pydantic's `model_dump` writes them (python or JSON mode)."""

from __future__ import annotations

import enum
from math import isfinite
from typing import Any


def dump_value(value: Any, json_mode: bool, exclude_none: bool) -> Any:
    """`value` as pydantic dumps it inside a field: models as dicts (their None fields left
    out under `exclude_none`), containers copied as plain lists, dicts and tuples, enums by
    value, NaN and inf as null and keys as strings in JSON mode."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return value if not json_mode or isfinite(value) else None
    dump = getattr(value, "model_dump", None)
    if dump is not None and not isinstance(value, type):
        return dump(mode="json" if json_mode else "python", exclude_none=exclude_none)
    # a subclass's own storage, as pydantic reads it (tomlkit's tables and arrays unwrap
    # their items when iterated)
    if isinstance(value, list):
        return [dump_value(v, json_mode, exclude_none) for v in list.__iter__(value)]
    if isinstance(value, dict):
        return {
            (_key(k) if json_mode else k): dump_value(v, json_mode, exclude_none)
            for k, v in dict.items(value)
        }
    if isinstance(value, tuple):
        items = [dump_value(v, json_mode, exclude_none) for v in tuple.__iter__(value)]
        return items if json_mode else tuple(items)
    if isinstance(value, enum.Enum):
        return dump_value(value.value, json_mode, exclude_none) if json_mode else value
    if json_mode:
        if isinstance(value, (set, frozenset)):
            return [dump_value(v, json_mode, exclude_none) for v in value]
        from pydantic import TypeAdapter

        return TypeAdapter(Any).dump_python(value, mode="json")
    return value


def _key(key: Any) -> str:
    """A dict key as pydantic writes it in JSON mode."""
    if type(key) is str:
        return key
    if isinstance(key, enum.Enum):
        return _key(key.value)
    if key is True or key is False:
        return "true" if key else "false"
    if isinstance(key, tuple):
        return ",".join(_key(k) for k in key)
    return str(key)
