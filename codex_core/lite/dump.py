"""Dump values the way pydantic's `model_dump` writes them (python or JSON mode)."""

from __future__ import annotations

import enum
from math import isfinite
from typing import Any


def dump_value(value: Any, json_mode: bool, exclude_none: bool) -> Any:
    """`value` as pydantic dumps a field holding it: models as dicts (their None fields left
    out under `exclude_none`), containers copied, enums by value in JSON mode."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return value if not json_mode or isfinite(value) else None  # pydantic: NaN, inf → null
    dump = getattr(value, "model_dump", None)
    if dump is not None and not isinstance(value, type):
        return dump(mode="json" if json_mode else "python", exclude_none=exclude_none)
    if kind is list:
        return [dump_value(v, json_mode, exclude_none) for v in value]
    if kind is dict:
        return {
            (_key(k) if json_mode else k): dump_value(v, json_mode, exclude_none)
            for k, v in value.items()
        }
    if kind is tuple:
        items = [dump_value(v, json_mode, exclude_none) for v in value]
        return items if json_mode else tuple(items)
    if isinstance(value, enum.Enum):
        return dump_value(value.value, json_mode, exclude_none) if json_mode else value
    if json_mode:
        if isinstance(value, (set, frozenset)):
            return [dump_value(v, json_mode, exclude_none) for v in value]
        from pydantic import TypeAdapter

        return TypeAdapter(Any).dump_python(value, mode="json")
    return value


def _key(key: Any) -> Any:
    if isinstance(key, enum.Enum):
        return key.value
    return key
