"""The pydantic twin of a light model: what decides whenever the fast checks cannot.

A twin is a pydantic model built on first need from the light class's fields, config and
validators (its light fields' types replaced by their twins), named as the class, so
validation results, error messages and JSON schemas are the ones pydantic gave when these
classes were pydantic models. Its instances are turned back into light ones. Importing this
module imports pydantic: only error paths, unusual values and the app-server's schemas do.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import pydantic
from pydantic_core import core_schema as cs

from codex_core.lite.checks import spec_of
from codex_core.lite.fields import FieldInfo, validators

_TWINS: dict[type, type[pydantic.BaseModel]] = {}
_BUILDING: set[type] = set()


def twin(cls: type) -> type[pydantic.BaseModel]:
    """The pydantic model standing for light class `cls`."""
    found = _TWINS.get(cls)
    if found is not None:
        return found
    if cls in _BUILDING:
        raise TypeError(f"{cls.__name__} refers to itself: light models cannot")
    _BUILDING.add(cls)
    try:
        return _build(cls)
    finally:
        _BUILDING.discard(cls)


def _build(cls: type) -> type[pydantic.BaseModel]:
    spec = spec_of(cls)
    fields = {
        name: (rewrite(info.annotation), pydantic.Field(**_field_kwargs(info)))
        for name, info in spec.fields.items()
    }
    checks: dict[str, Any] = {}
    for index, validator in enumerate(validators(cls)):
        if validator.mode == "serializer":
            checks[f"_serializer_{index}"] = pydantic.model_serializer(mode="wrap")(validator.func)
        elif validator.mode == "before":
            checks[f"_before_{index}"] = pydantic.model_validator(mode="before")(validator.func)
        else:
            checks[f"_after_{index}"] = pydantic.field_validator(*validator.fields)(validator.func)
    config = {k: v for k, v in cls.__lite_config__.items() if k != "defer_build"}  # type: ignore[attr-defined]
    made = pydantic.create_model(  # type: ignore[call-overload]
        cls.__name__,
        __config__=pydantic.ConfigDict(**config),  # type: ignore[typeddict-item]
        __doc__=cls.__doc__,
        __module__=cls.__module__,
        __validators__=checks,
        **fields,
    )
    made.__lite_class__ = cls
    _TWINS[cls] = made
    return made  # type: ignore[no-any-return]


def _field_kwargs(info: FieldInfo) -> dict[str, Any]:
    out = info.pydantic_kwargs()
    if "default_factory" in out:
        out.pop("default", None)
    return out


def rewrite(tp: Any) -> Any:
    """Annotation `tp` for pydantic: light `Field(...)` metadata made pydantic's. Light
    classes stay: pydantic asks them for their schema (`core_schema`), which accepts their
    instances as they are and validates anything else with their twin."""
    if isinstance(tp, FieldInfo):
        return pydantic.Field(**_field_kwargs(tp))
    origin = typing.get_origin(tp)
    if origin is None:
        return tp
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        return typing.Annotated[(rewrite(args[0]), *(rewrite(m) for m in tp.__metadata__))]
    if origin is typing.Literal:
        return tp
    new = tuple(rewrite(a) for a in args)
    if all(a is b for a, b in zip(new, args, strict=True)):
        return tp
    if origin in (typing.Union, types.UnionType):
        return typing.Union[new]  # noqa: UP007 - built from a tuple
    return origin[new[0] if len(new) == 1 else new]


def to_light(value: Any) -> Any:
    """A twin's instance as a light one."""
    light = getattr(type(value), "__lite_class__", None)
    if light is None:
        return value  # what a twin holds is light already (see `rewrite`)
    state = {name: getattr(value, name) for name in type(value).model_fields}
    extra = value.__pydantic_extra__
    return light._lite_new(
        state, set(value.model_fields_set), None if extra is None else dict(extra)
    )


def to_twin(value: Any) -> Any:
    """A light instance as its twin's, for pydantic to serialise (what it holds stays light:
    pydantic serialises that through `core_schema`)."""
    made = twin(type(value))
    return made.model_construct(
        _fields_set=set(value._lite_set), **value.__dict__, **(value._lite_extra or {})
    )


def validated_state(
    cls: type, data: dict[str, Any]
) -> tuple[dict[str, Any], set[str], dict[str, Any] | None]:
    """`cls(**data)` as pydantic builds it: (field values, the keys given, extra keys)."""
    made = to_light(twin(cls)(**data))
    return made.__dict__, made._lite_set, made._lite_extra


def validate_as(cls: type, obj: Any, *, strict: bool | None = None) -> Any:
    return to_light(twin(cls).model_validate(obj, strict=strict))


def validate_json_as(cls: type, data: str | bytes) -> Any:
    return to_light(twin(cls).model_validate_json(data))


def dump_json(value: Any, *, exclude_none: bool) -> str:
    return to_twin(value).model_dump_json(exclude_none=exclude_none)  # type: ignore[no-any-return]


def core_schema(cls: type, handler: Any) -> Any:
    """How pydantic models holding a light class validate and serialise it: as its twin."""
    inner = handler(twin(cls))

    def validate(value: Any, next_: Any) -> Any:
        if isinstance(value, cls):
            return value
        return to_light(next_(value))

    # named for the class: an adapter's error title reads `function-wrap[Name()]`
    validate.__name__ = validate.__qualname__ = cls.__name__

    return cs.no_info_wrap_validator_function(
        validate,
        inner,
        serialization=cs.plain_serializer_function_ser_schema(to_twin, return_schema=inner),
        # pydantic labels a union's branch with this (the model's name, as for its twin)
        metadata={"pydantic_internal_union_tag_key": cls.__name__},
    )


class TypeAdapter:
    """pydantic's `TypeAdapter` for types made of light models: fast checks first."""

    def __init__(self, tp: Any, *, config: Any = None) -> None:
        self._tp = tp
        self._adapter: Any = None

    def _pydantic(self) -> Any:
        if self._adapter is None:
            self._adapter = pydantic.TypeAdapter(rewrite(self._tp))
        return self._adapter

    def validate_python(self, obj: Any) -> Any:
        return to_light(self._pydantic().validate_python(obj))

    def validate_json(self, data: str | bytes) -> Any:
        return to_light(self._pydantic().validate_json(data))
