"""Light models: pydantic's API for codex's own data, without pydantic until it must decide.

`Model`, `Field`, `ConfigDict`, `field_validator`, `model_validator` and `TypeAdapter` read as
their pydantic namesakes (the subset codex uses); see `codex_core.lite.model`. pydantic's
`ValidationError` is this package's attribute, imported when first looked up: write
`except lite.ValidationError:` so that only a raised exception looks it up.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from codex_core.lite.checks import Bail, type_check
from codex_core.lite.dump import dump_value
from codex_core.lite.fields import (
    Field,
    FieldInfo,
    ValidationInfo,
    field_validator,
    model_serializer,
    model_validator,
)
from codex_core.lite.model import Model

__all__ = [
    "ConfigDict",
    "Field",
    "FieldInfo",
    "Model",
    "TypeAdapter",
    "ValidationInfo",
    "field_validator",
    "is_model",
    "model_serializer",
    "model_validator",
]


def ConfigDict(**settings: Any) -> dict[str, Any]:  # noqa: N802 - pydantic's name
    """A model's `model_config` (`extra`, `frozen`, `strict`, `defer_build`)."""
    return settings


_T = TypeVar("_T")


class TypeAdapter(Generic[_T]):
    """pydantic's `TypeAdapter` for a type made of light models: the fast check first, the
    pydantic twin (`codex_core.lite.twin`) when it cannot decide."""

    def __init__(self, tp: Any, *, config: Any = None) -> None:
        self._tp = tp
        self._check: Any = None
        self._slow: Any = None

    def _fast(self, value: Any) -> Any:
        if self._check is None:
            self._check = type_check(self._tp)
        return self._check(value)

    def _twin(self) -> Any:
        if self._slow is None:
            from codex_core.lite.twin import TypeAdapter as Twin

            self._slow = Twin(self._tp)
        return self._slow

    def validate_python(self, obj: Any) -> _T:
        try:
            return self._fast(obj)  # type: ignore[no-any-return]
        except Bail:
            return self._twin().validate_python(obj)  # type: ignore[no-any-return]

    def validate_json(self, data: str | bytes) -> _T:
        """pydantic's JSON parsing and validation (its JSON rules are not `json.loads`')."""
        return self._twin().validate_json(data)  # type: ignore[no-any-return]

    def dump_python(
        self,
        value: Any,
        *,
        mode: str = "python",
        exclude_none: bool = False,
        by_alias: bool = False,
    ) -> Any:
        return dump_value(value, mode == "json", exclude_none)


def is_model(value: Any) -> bool:
    """Whether `value` is a light model or a pydantic one (without importing pydantic)."""
    return isinstance(value, Model) or hasattr(type(value), "__pydantic_fields__")


def __getattr__(name: str) -> Any:
    if name == "ValidationError":
        from pydantic import ValidationError

        return ValidationError
    raise AttributeError(name)
