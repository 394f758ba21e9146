"""`Model`: pydantic's `BaseModel` as codex uses it, without importing pydantic to declare one.

Declaring a pydantic model costs about half a millisecond (its metaclass inspects every
field) and pydantic itself about a hundred to import: most of `codex exec`'s CPU before its
first request (issue 29). A `Model` is a plain class until first used; then its fields are
read from its annotations once (`codex_core.lite.fields`). Constructing or validating one
runs a fast check per field (`codex_core.lite.checks`) that only accepts what pydantic keeps
as it is; anything else — a conversion, an error, an unknown annotation — goes to a pydantic
twin of the class built on demand (`codex_core.lite.twin`), so results and error messages
are pydantic's. Dumps are computed here, the way pydantic writes them.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar, Self, dataclass_transform

from codex_core.lite.checks import Bail, spec_of
from codex_core.lite.dump import dump_value
from codex_core.lite.fields import MISSING, Field, FieldInfo, ValidationInfo


class _ClassProperty:
    def __init__(self, get: Any) -> None:
        self.get = get

    def __get__(self, obj: Any, cls: type) -> Any:
        return self.get(cls)


def _fast(
    cls: type, data: dict[str, Any]
) -> tuple[dict[str, Any], set[str], dict[str, Any] | None]:
    """(field values, the keys given, extra keys kept) from `data` as pydantic would make
    them, or `Bail`."""
    spec = spec_of(cls)
    for before in spec.before:
        try:
            data = before(data)
        except Exception as err:  # pydantic reports it (the twin runs the validator again)
            raise Bail from err
        if type(data) is not dict:
            raise Bail
    values: dict[str, Any] = {}
    given: set[str] = set()
    checks = spec.checks
    for name, info in spec.fields.items():
        if name in data:
            value = checks[name](data[name])
            given.add(name)
        elif info.default_factory is not None or info.default is not MISSING:
            value = info.get_default()
            if info.validate_default:
                value = checks[name](value)
        else:
            raise Bail
        after = spec.after.get(name)
        if after:
            for validator in after:
                try:
                    value = validator(value, ValidationInfo(values, name))
                except Exception as err:
                    raise Bail from err
        values[name] = value
    extra: dict[str, Any] | None = {} if spec.extra == "allow" else None
    if len(given) != len(data):
        if spec.extra == "forbid":
            raise Bail
        if extra is not None:
            for key, value in data.items():
                if key not in values:
                    if type(key) is not str:
                        raise Bail
                    extra[key] = value
                    given.add(key)
    return values, given, extra


@dataclass_transform(kw_only_default=True, field_specifiers=(Field, FieldInfo))
class Model:
    """Base of codex's light models (see the module's docstring)."""

    __slots__ = ("_lite_set", "_lite_extra")
    _lite_set: set[str]
    _lite_extra: dict[str, Any] | None
    """Keys kept beside the fields under `extra="allow"` (apart, as pydantic keeps them: an
    extra key never hides a method); None for the other classes."""
    model_config: ClassVar[dict[str, Any]] = {}
    __lite_config__: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        config: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            config.update(vars(klass).get("model_config", {}))
        cls.__lite_config__ = config
        if config.get("frozen"):
            cls.__setattr__ = _frozen_setattr  # type: ignore[method-assign]
            cls.__hash__ = _frozen_hash  # type: ignore[method-assign,assignment]
            cls.__delattr__ = _frozen_delattr  # type: ignore[method-assign,assignment]

    def __init__(self, /, **data: Any) -> None:
        cls = type(self)
        try:
            values, given, extra = _fast(cls, data)
        except Bail:
            from codex_core.lite.twin import validated_state

            values, given, extra = validated_state(cls, data)
        object.__setattr__(self, "__dict__", values)
        object.__setattr__(self, "_lite_set", given)
        object.__setattr__(self, "_lite_extra", extra)

    @classmethod
    def __lite_fast__(cls, data: dict[str, Any]) -> Self:
        return cls._lite_new(*_fast(cls, data))

    @classmethod
    def _lite_new(
        cls, values: dict[str, Any], given: set[str], extra: dict[str, Any] | None = None
    ) -> Self:
        new = cls.__new__(cls)
        object.__setattr__(new, "__dict__", values)
        object.__setattr__(new, "_lite_set", given)
        object.__setattr__(new, "_lite_extra", extra)
        return new

    def __getattr__(self, name: str) -> Any:
        """An extra key (`extra="allow"`), as pydantic reads them."""
        extra = object.__getattribute__(self, "_lite_extra") if name != "_lite_extra" else None
        if extra and name in extra:
            return extra[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # ------------------------------------------------------------------ pydantic's API

    model_fields = _ClassProperty(lambda cls: spec_of(cls).fields)

    @property
    def model_fields_set(self) -> set[str]:
        return set(self._lite_set)

    @classmethod
    def model_validate(cls, obj: Any, *, strict: bool | None = None) -> Self:
        """`strict`: as pydantic's (the fast checks accept only what strict mode keeps)."""
        if isinstance(obj, cls):
            return obj
        if type(obj) is dict:
            try:
                return cls.__lite_fast__(obj)
            except Bail:
                pass
        from codex_core.lite.twin import validate_as

        return validate_as(cls, obj, strict=strict)  # type: ignore[no-any-return]

    @classmethod
    def model_validate_json(cls, data: str | bytes) -> Self:
        """pydantic's JSON parsing and validation (its JSON rules are not `json.loads`')."""
        from codex_core.lite.twin import validate_json_as

        return validate_json_as(cls, data)  # type: ignore[no-any-return]

    @classmethod
    def model_construct(cls, _fields_set: set[str] | None = None, **values: Any) -> Self:
        fields = spec_of(cls).fields
        state: dict[str, Any] = {}
        for name, info in fields.items():
            if name in values:
                state[name] = values[name]
            elif not info.is_required():
                state[name] = info.get_default()
        extra = None
        if cls.__lite_config__.get("extra") == "allow":
            extra = {k: v for k, v in values.items() if k not in fields}
        given = set(values) & set(fields) if _fields_set is None else set(_fields_set)
        return cls._lite_new(state, given, extra)

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Self:
        state = copy.deepcopy(self.__dict__) if deep else dict(self.__dict__)
        extra = self._lite_extra
        extra = None if extra is None else copy.deepcopy(extra) if deep else dict(extra)
        given = set(self._lite_set)
        if update:
            fields = spec_of(type(self)).fields
            for key, value in update.items():
                if key in fields:
                    state[key] = value
                    given.add(key)
                elif extra is not None:
                    extra[key] = value
                    given.add(key)
                # else: pydantic keeps it out of every dump; here it is dropped
        return type(self)._lite_new(state, given, extra)

    def _lite_items(self) -> Any:
        """(name, value) of the fields, then of the extra keys."""
        yield from self.__dict__.items()
        if self._lite_extra:
            yield from self._lite_extra.items()

    def model_dump(
        self, *, mode: str = "python", by_alias: bool = False, exclude_none: bool = False
    ) -> dict[str, Any]:
        """The fields (then any extra keys) as pydantic dumps them; `by_alias` changes
        nothing (no light model has aliases)."""
        json_mode = mode == "json"
        serializer = spec_of(type(self)).serializer
        if serializer is not None:
            return serializer(self, lambda model: model._lite_dump(json_mode, exclude_none))  # type: ignore[no-any-return]
        return self._lite_dump(json_mode, exclude_none)

    def _lite_dump(self, json_mode: bool, exclude_none: bool) -> dict[str, Any]:
        out: dict[str, Any] = {}
        floats = spec_of(type(self)).floats
        for key, value in self.__dict__.items():
            if value is None and exclude_none:
                continue
            if type(value) is float and key in floats:
                out[key] = value
            else:
                out[key] = dump_value(value, json_mode, exclude_none)
        for key, value in (self._lite_extra or {}).items():
            if value is None and exclude_none:
                continue
            out[key] = dump_value(value, json_mode, exclude_none)
        return out

    @classmethod
    def model_json_schema(cls, **kwargs: Any) -> dict[str, Any]:
        """pydantic's JSON schema of the class (its twin's: same names and fields)."""
        from codex_core.lite.twin import twin

        return twin(cls).model_json_schema(**kwargs)

    def model_dump_json(self, *, by_alias: bool = False, exclude_none: bool = False) -> str:
        from codex_core.lite.twin import dump_json

        return dump_json(self, exclude_none=exclude_none)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        from codex_core.lite.twin import core_schema

        return core_schema(cls, handler)

    # ------------------------------------------------------------------ object protocol

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Model):
            return NotImplemented
        return (
            type(self) is type(other)
            and self.__dict__ == other.__dict__
            and self._lite_extra == other._lite_extra
        )

    __hash__ = None  # type: ignore[assignment]

    def __setattr__(self, name: str, value: Any) -> None:
        """As pydantic: a field set counts as given; an unknown name is refused (but a
        property's setter, a private name and `extra="allow"`'s keys)."""
        if name in spec_of(type(self)).fields:
            object.__setattr__(self, name, value)
            self._lite_set.add(name)
        elif name.startswith("_") or hasattr(type(self), name):
            object.__setattr__(self, name, value)
        elif self._lite_extra is not None:
            self._lite_extra[name] = value
            self._lite_set.add(name)
        else:
            raise ValueError(f'"{type(self).__name__}" object has no field "{name}"')

    def __str__(self) -> str:
        return " ".join(f"{key}={value!r}" for key, value in self._lite_items())

    def __repr__(self) -> str:
        inner = ", ".join(f"{key}={value!r}" for key, value in self._lite_items())
        return f"{type(self).__name__}({inner})"

    def __iter__(self) -> Any:
        yield from self._lite_items()

    def __copy__(self) -> Self:
        extra = self._lite_extra
        return type(self)._lite_new(
            dict(self.__dict__), set(self._lite_set), None if extra is None else dict(extra)
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return type(self)._lite_new(
            copy.deepcopy(self.__dict__, memo),
            set(self._lite_set),
            copy.deepcopy(self._lite_extra, memo),
        )

    def __getstate__(self) -> Any:
        return (self.__dict__, self._lite_set, self._lite_extra)

    def __setstate__(self, state: Any) -> None:
        object.__setattr__(self, "__dict__", state[0])
        object.__setattr__(self, "_lite_set", state[1])
        object.__setattr__(self, "_lite_extra", state[2])


def _frozen_setattr(self: Model, name: str, value: Any) -> None:
    """pydantic's error for a frozen instance's assignment."""
    from pydantic_core import ValidationError

    raise ValidationError.from_exception_data(
        type(self).__name__, [{"type": "frozen_instance", "loc": (name,), "input": value}]
    )


def _frozen_delattr(self: Model, name: str) -> None:
    raise TypeError(f'"{type(self).__name__}" is frozen: cannot delete "{name}"')


def _frozen_hash(self: Model) -> int:
    return hash((type(self), *self.__dict__.values()))
