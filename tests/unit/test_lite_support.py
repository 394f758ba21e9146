"""Shared pieces of the light-model property tests (no tests here): every light class in
codex_core, each class as the plain pydantic model it was, and outcomes (a result with its
dumps, or an error) compared exactly between the two. Strategies: test_lite_strategies."""

from __future__ import annotations

import json
import re
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

import pydantic
from hypothesis import HealthCheck, Phase, settings

import codex_core.config.schema
import codex_core.model_provider
import codex_core.policies
import codex_core.protocol
from codex_core.lite import Model
from codex_core.lite.checks import spec_of
from codex_core.lite.fields import FieldInfo, validators
from codex_core.servers.app_server import model_items as wire_items
from codex_core.servers.app_server import model_methods as wire_methods
from codex_core.servers.app_server import model_notify as wire_notify
from codex_core.servers.app_server import model_thread as wire_thread

MODULES: tuple[types.ModuleType, ...] = (codex_core.protocol, codex_core.policies)
MODULES += (codex_core.config.schema, codex_core.model_provider)
MODULES += (wire_items, wire_methods, wire_notify, wire_thread)
"""Where the light classes are declared (imported so that every one is found): the
protocol, the configuration, and the app-server's thread and turn wire models. Only their
classes are compared, whatever else a test run has imported (xdist's workers must collect
the same tests)."""


_NAMES = {
    name
    for name, module in sys.modules.items()
    if name.startswith("codex_core.")
    and any(name == m.__name__ or name.startswith(m.__name__ + ".") for m in MODULES)
}


def light_classes() -> list[type[Model]]:
    """Every subclass of `Model` in codex_core, depth first, in declaration order."""
    found: list[type[Model]] = []

    def walk(cls: type[Model]) -> None:
        for sub in cls.__subclasses__():
            if sub.__module__ in _NAMES and sub not in found:
                found.append(sub)
            walk(sub)

    walk(Model)
    return found


CLASSES = light_classes()


def lite_settings(examples: int) -> settings:
    """The light-model properties' hypothesis settings: `examples` per class, deterministic
    (derandomized, no example database) and without shrinking (a failure names its first
    difference; shrinking a whole config.toml takes minutes)."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        database=None,
        phases=[Phase.explicit, Phase.generate],
    )


def is_light(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, Model)


# ---------------------------------------------------------------- comparing results


def canon(value: Any) -> Any:
    """`value` as a comparable tree that keeps what `==` forgets: exact types (True is not
    1, 1.0 is not 1), key order, NaN, which fields were set. A light instance and a twin's
    instance of the same class with the same state give the same tree."""
    if isinstance(value, (Model, pydantic.BaseModel)):
        # iterating gives the fields, then the extra keys (both libraries)
        state = tuple((k, canon(v)) for k, v in value)
        return ("model", type(value).__name__, state, tuple(sorted(value.model_fields_set)))
    kind = type(value)
    if kind is dict:
        return ("dict", tuple((canon(k), canon(v)) for k, v in value.items()))
    if kind in (list, tuple):
        return (kind.__name__, tuple(canon(v) for v in value))
    if kind in (set, frozenset):
        return (kind.__name__, tuple(sorted(repr(canon(v)) for v in value)))
    if isinstance(value, BaseException):
        return ("exception", kind.__name__, str(value))
    return (kind.__qualname__, repr(value))


def dumps(value: Any) -> Any:
    """A model's dumps as `exec --json`, rollouts and the app-server write them: python and
    JSON mode, JSON text (or the exception a dump raises)."""
    if not isinstance(value, (Model, pydantic.BaseModel)):
        return None
    out = []
    for mode, exclude_none in (("python", False), ("json", False), ("json", True)):
        try:
            out.append(canon(value.model_dump(mode=mode, exclude_none=exclude_none)))
        except Exception as err:  # noqa: BLE001 - compared, not hidden
            out.append(("raised", type(err).__name__, str(err)))
    for exclude_none in (False, True):
        try:
            out.append(value.model_dump_json(exclude_none=exclude_none))
        except Exception as err:  # noqa: BLE001 - compared, not hidden
            out.append(("raised", type(err).__name__, str(err)))
    return tuple(out)


def outcome(make: Callable[[], Any]) -> Any:
    """What `make()` gives: its value and dumps, or pydantic's errors (without urls), or
    another exception's type and message."""
    try:
        value = make()
    except pydantic.ValidationError as err:
        return ("ValidationError", err.title, canon(err.errors(include_url=False)))
    except Exception as err:  # noqa: BLE001 - compared, not hidden
        return ("raised", type(err).__name__, str(err))
    return ("ok", canon(value), dumps(value))


def json_or_none(data: Any) -> str | None:
    """`data` as JSON text when it is JSON (no instances, NaN or odd keys), else None."""
    try:
        return json.dumps(data, allow_nan=False)
    except (TypeError, ValueError):
        return None


def first_difference(left: Any, right: Any, path: tuple[int, ...] = ()) -> Any:
    """Where two canonical trees first differ: (path of indices, left part, right part)."""
    if type(left) is tuple and type(right) is tuple and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right, strict=True)):
            if a != b:
                return first_difference(a, b, (*path, index))
    return (path, left, right)


def assert_same(light: dict[str, Any], pydantic_: dict[str, Any], data: Any) -> None:
    """Fail with the first difference between the light and the pydantic outcomes."""
    for key, want in pydantic_.items():
        got = light[key]
        if got != want:
            where, a, b = first_difference(got, want)
            raise AssertionError(
                f"{key} of {data!r}:\n  light:    {got}\n  pydantic: {want}\n"
                f"  first difference at {where}: light {a} vs pydantic {b}"
            )
    assert light.keys() == pydantic_.keys()


_WRAPPED = re.compile(r"function-wrap\[(\w+)\(\)\]")


def tolerated(tree: Any) -> Any:
    """`tree` with the one known difference blurred: the title of an adapter's error (its
    first line) names a light class in a union `function-wrap[Name()]` where pydantic says
    `Name` (error locations name it as pydantic does)."""
    if type(tree) is tuple:
        return tuple(tolerated(part) for part in tree)
    if type(tree) is dict:
        return {key: tolerated(part) for key, part in tree.items()}
    if type(tree) is str:
        # the substring test first: most strings are values, and a regex pass over each of
        # them was a tenth of the light-model tests' CPU
        return _WRAPPED.sub(r"\1", tree) if "function-wrap[" in tree else tree
    return tree


def light_outcomes(cls: type[Model], data: dict[str, Any]) -> dict[str, Any]:
    """`cls(**data)`, `cls.model_validate(data)` and (for JSON data) `model_validate_json`."""
    return _outcomes(cls, data, data)


def pure_outcomes(cls: type[Model], data: dict[str, Any]) -> dict[str, Any]:
    """The same calls on the class as a pydantic model (light instances in `data` as that
    model's instances)."""
    return _outcomes(pure(cls), to_pure(data), data)


def _outcomes(model: Any, given: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    out = {
        "init": outcome(lambda: model(**given)),
        "validate": outcome(lambda: model.model_validate(given)),
    }
    text = json_or_none(data)
    if text is not None:
        out["json"] = outcome(lambda: model.model_validate_json(text))
    return out


# ---------------------------------------------------------------- the pydantic models


_PURE: dict[type, type[pydantic.BaseModel]] = {}


def pure(cls: type[Model]) -> type[pydantic.BaseModel]:
    """Light class `cls` as the plain pydantic model it was before issue 29 (built here,
    independently of `codex_core.lite.twin`): same name, fields, config and validators, its
    light fields' types made pure too."""
    found = _PURE.get(cls)
    if found is not None:
        return found
    fields: dict[str, Any] = {}
    for name, info in spec_of(cls).fields.items():
        fields[name] = (pure_type(info.annotation), pydantic.Field(**pure_kwargs(info)))
    checks: dict[str, Any] = {}
    for index, validator in enumerate(validators(cls)):
        if validator.mode == "serializer":
            checks[f"_serializer_{index}"] = pydantic.model_serializer(mode="wrap")(validator.func)
        elif validator.mode == "before":
            checks[f"_before_{index}"] = pydantic.model_validator(mode="before")(validator.func)
        else:
            checks[f"_after_{index}"] = pydantic.field_validator(*validator.fields)(validator.func)
    config = {k: v for k, v in cls.__lite_config__.items() if k != "defer_build"}
    made: type[pydantic.BaseModel] = pydantic.create_model(
        cls.__name__,
        __config__=pydantic.ConfigDict(**config),  # type: ignore[typeddict-item]
        __doc__=cls.__doc__,
        __module__=cls.__module__,
        __validators__=checks,
        **fields,
    )
    made.__light__ = cls  # type: ignore[attr-defined]
    _PURE[cls] = made
    return made


def pure_kwargs(info: FieldInfo) -> dict[str, Any]:
    """`Field(...)`'s arguments, defaults made of pydantic instances (as they were)."""
    out = info.pydantic_kwargs()
    factory = out.get("default_factory")
    if factory is not None:
        out.pop("default", None)
        out["default_factory"] = lambda: to_pure(factory())
    elif "default" in out:
        out["default"] = to_pure(out["default"])
    return out


def pure_type(tp: Any) -> Any:
    """Annotation `tp` with light classes and light `Field(...)`s made pydantic's."""
    if is_light(tp):
        return pure(tp)
    if isinstance(tp, FieldInfo):
        return pydantic.Field(**pure_kwargs(tp))
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is None or origin is typing.Literal:
        return tp
    if origin is typing.Annotated:
        return typing.Annotated[(pure_type(args[0]), *map(pure_type, tp.__metadata__))]
    new = tuple(pure_type(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return typing.Union[new]  # noqa: UP007 - built from a tuple
    return origin[new[0] if len(new) == 1 else new]


def to_pure(value: Any) -> Any:
    """`value` with light instances (at any depth) as their pydantic models' instances."""
    if isinstance(value, Model):
        state = {k: to_pure(v) for k, v in value}
        return pure(type(value)).model_construct(_fields_set=value.model_fields_set, **state)
    kind = type(value)
    if kind is list or kind is tuple:
        return kind(to_pure(v) for v in value)
    if kind is dict:
        return {k: to_pure(v) for k, v in value.items()}
    return value


def to_light(value: Any) -> Any:
    """`value` with pydantic models' instances (at any depth) as light ones."""
    light = getattr(type(value), "__light__", None)
    if light is not None:
        state = {k: to_light(v) for k, v in value}
        return light.model_construct(_fields_set=set(value.model_fields_set), **state)
    kind = type(value)
    if kind is list or kind is tuple:
        return kind(to_light(v) for v in value)
    if kind is dict:
        return {k: to_light(v) for k, v in value.items()}
    return value
