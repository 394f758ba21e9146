"""The one parser of model-sent tool arguments: a JSON object whose fields are checked.

Every tool validates its arguments here, so a malformed call (not JSON, `NaN` or `Infinity`,
a number too large for any clock or budget, a wrong type) becomes one sentence answered to
the model (`ToolArgumentError`), never an exception deeper in the tool.
"""

from __future__ import annotations

import json
import math
from typing import Any

from codex_core.tools.errors import RespondToModel

MAX_INTEGER = 2**53
"""The largest integer argument accepted (JSON's exact-integer range); larger is refused."""

PARSE_FAILED = "failed to parse function arguments"


class ToolArgumentError(RespondToModel, ValueError):
    """The model sent arguments the tool cannot use; the message goes back to the model."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def parse_object(arguments: str) -> dict[str, Any]:
    """The arguments as a JSON object (strict JSON: `NaN` and `Infinity` are refused)."""
    try:
        data = json.loads(arguments or "{}", parse_constant=_no_constant)
    except (json.JSONDecodeError, ValueError, RecursionError) as err:
        raise ToolArgumentError(f"{PARSE_FAILED}: {err}") from None
    if not isinstance(data, dict):
        raise ToolArgumentError(f"{PARSE_FAILED}: expected a JSON object")
    return data


def integer(data: dict[str, Any], key: str, *, minimum: int = 0) -> int | None:
    """A whole number field (a float is truncated), None when absent or null."""
    value = data.get(key)
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not minimum <= value <= MAX_INTEGER
    ):
        raise ToolArgumentError(
            f"{PARSE_FAILED}: `{key}` must be a number from {minimum} to {MAX_INTEGER}"
        )
    return int(value)


def string(data: dict[str, Any], key: str) -> str | None:
    """A string field, None when absent or null."""
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ToolArgumentError(f"{PARSE_FAILED}: `{key}` must be a string")
    return value
