"""Fields of a light model: declarations (`Field`), validator markers, and each class's spec.

A class's spec is built on its first use, not at import: its annotations resolved, its fields
in pydantic's order (a base's first; a field a subclass redeclares keeps its place), its
validators, and per field a check (see `codex_core.lite.checks`).
"""

from __future__ import annotations

import copy
import typing
from collections.abc import Callable
from typing import Any

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()
"""No default: the field is required."""

_CONSTRAINTS = ("ge", "gt", "le", "lt")


class FieldInfo:
    """One field: its annotation (resolved on first use), default or factory, and what
    pydantic makes of `Field(...)`'s other arguments."""

    __slots__ = (
        "annotation",
        "default",
        "default_factory",
        "discriminator",
        "validate_default",
        "constraints",
        "kwargs",
    )

    def __init__(
        self,
        default: Any = MISSING,
        *,
        default_factory: Callable[[], Any] | None = None,
        discriminator: str | None = None,
        validate_default: bool = False,
        **kwargs: Any,
    ) -> None:
        self.annotation: Any = None
        self.default = default
        self.default_factory = default_factory
        self.discriminator = discriminator
        self.validate_default = validate_default
        self.constraints = {k: kwargs[k] for k in _CONSTRAINTS if kwargs.get(k) is not None}
        self.kwargs = kwargs
        """Every keyword as given (for the pydantic twin: descriptions, constraints, ...)."""

    def is_required(self) -> bool:
        return self.default is MISSING and self.default_factory is None

    def get_default(self) -> Any:
        """The default for a new instance: a factory's result, or a copy of a mutable default
        (as pydantic does)."""
        if self.default_factory is not None:
            return self.default_factory()
        value = self.default
        if type(value) in (list, dict, set):
            return copy.deepcopy(value)
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        """In pydantic's own annotations (`Annotated[A | B, Field(discriminator=...)]` in a
        pydantic model or TypeAdapter): what pydantic's `Field` with these settings does."""
        import pydantic

        return handler(typing.Annotated[source, pydantic.Field(**self.pydantic_kwargs())])

    def pydantic_kwargs(self) -> dict[str, Any]:
        out = dict(self.kwargs)
        if self.default is not MISSING:
            out["default"] = self.default
        if self.default_factory is not None:
            out["default_factory"] = self.default_factory
        if self.discriminator is not None:
            out["discriminator"] = self.discriminator
        if self.validate_default:
            out["validate_default"] = True
        return out


def Field(  # noqa: N802 - pydantic's name, so declarations read the same
    default: Any = MISSING,
    *,
    default_factory: Callable[[], Any] | None = None,
    discriminator: str | None = None,
    validate_default: bool = False,
    **kwargs: Any,
) -> Any:
    """Declare a field as pydantic's `Field` does (the subset codex uses)."""
    return FieldInfo(
        default,
        default_factory=default_factory,
        discriminator=discriminator,
        validate_default=validate_default,
        **kwargs,
    )


class Validator:
    """A `field_validator` (after the field's check) or a `model_validator(mode="before")`
    (on the input dict, before any check)."""

    __slots__ = ("func", "fields", "mode")

    def __init__(self, func: Any, fields: tuple[str, ...], mode: str) -> None:
        self.func = func
        self.fields = fields
        self.mode = mode

    def bound(self, cls: type) -> Callable[..., Any]:
        return self.func.__get__(None, cls)  # type: ignore[no-any-return]


def field_validator(*fields: str, mode: str = "after") -> Callable[[Any], Any]:
    """pydantic's `field_validator` (mode "after" only)."""
    if mode != "after":
        raise TypeError("codex_core.lite supports after field validators only")

    def mark(func: Any) -> Validator:
        return Validator(func, fields, "field")

    return mark


def model_serializer(*, mode: str) -> Callable[[Any], Any]:
    """pydantic's `model_serializer` (mode "wrap" only): `func(self, handler)`, where
    `handler(self)` is the dump the model would give without it."""
    if mode != "wrap":
        raise TypeError("codex_core.lite supports wrap model serializers only")

    def mark(func: Any) -> Validator:
        return Validator(func, (), "serializer")

    return mark


def model_validator(*, mode: str) -> Callable[[Any], Any]:
    """pydantic's `model_validator` (mode "before" only)."""
    if mode != "before":
        raise TypeError("codex_core.lite supports before model validators only")

    def mark(func: Any) -> Validator:
        return Validator(func, (), "before")

    return mark


class ValidationInfo:
    """What a field validator sees: the fields validated before it."""

    __slots__ = ("data", "field_name")

    def __init__(self, data: dict[str, Any], field_name: str) -> None:
        self.data = data
        self.field_name = field_name


def validators(cls: type) -> list[Validator]:
    """The validators declared on `cls` and its bases (a base's first)."""
    out: dict[str, Validator] = {}
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, Validator):
                out[name] = value
    return list(out.values())


def collect_fields(cls: type) -> dict[str, FieldInfo]:
    """The fields of `cls` in pydantic's order, annotations resolved."""
    hints = typing.get_type_hints(cls, include_extras=True)
    fields: dict[str, FieldInfo] = {}
    for name, annotation in hints.items():
        if name.startswith("_") or typing.get_origin(annotation) is typing.ClassVar:
            continue
        declared = _declared(cls, name)
        info = declared if isinstance(declared, FieldInfo) else FieldInfo(declared)
        if typing.get_origin(annotation) is typing.Annotated:
            base, *meta = typing.get_args(annotation)
            for item in meta:
                if isinstance(item, FieldInfo):
                    info = _merged(item, info)
                    annotation = base
        clone = FieldInfo.__new__(FieldInfo)
        for slot in FieldInfo.__slots__:
            setattr(clone, slot, getattr(info, slot))
        clone.annotation = annotation
        fields[name] = clone
    return fields


def _declared(cls: type, name: str) -> Any:
    for klass in cls.__mro__:
        if name in vars(klass):
            value = vars(klass)[name]
            if isinstance(value, (property, Validator, classmethod, staticmethod)):
                return MISSING
            return value
        if name in getattr(klass, "__annotations__", {}):
            return MISSING
    return MISSING


def _merged(meta: FieldInfo, declared: FieldInfo) -> FieldInfo:
    """`Annotated[X, Field(...)] = default`: the metadata's settings with the default."""
    out = FieldInfo(
        declared.default,
        default_factory=declared.default_factory or meta.default_factory,
        discriminator=meta.discriminator or declared.discriminator,
        validate_default=meta.validate_default or declared.validate_default,
        **{**meta.kwargs, **declared.kwargs},
    )
    return out
