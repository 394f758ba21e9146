"""Hypothesis strategies for the light-model property tests (no tests here): valid values read
from field annotations, and near misses (a valid input bent at one place)."""

from __future__ import annotations

import enum
import functools
import math
import operator
import types
import typing
from collections.abc import Callable
from typing import Any

import pydantic
from hypothesis import strategies as st

from codex_core.lite import Model
from codex_core.lite.checks import spec_of
from codex_core.lite.fields import FieldInfo
from tests.unit.test_lite_support import is_light, pure, to_light, to_pure


class StrSub(str):
    """A str subclass: pydantic keeps... or converts; the light checks must not guess."""


class Colour(enum.Enum):
    RED = "red"
    ONE = 1


class Tag(enum.StrEnum):
    ADD = "add"
    TEXT = "text"


_SHORT_TEXT = st.text(st.sampled_from('ab_-/. é\u2014\n"\\0'), max_size=6)
_KEYS = st.text(st.sampled_from("abkz_"), min_size=1, max_size=4)
_FLOATS = st.floats(allow_nan=False, allow_infinity=False)
_INTS = st.one_of(st.integers(-(2**70), 2**70), st.integers(-3, 3))
JSON_SCALARS = st.one_of(st.none(), st.booleans(), _INTS, _FLOATS, _SHORT_TEXT)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=3)),
    max_leaves=6,
)
"""What an `Any` field holds after JSON: finite numbers, str keys."""

ODD_ANY = st.recursive(
    st.one_of(
        JSON_SCALARS,
        st.sampled_from([float("inf"), float("nan"), b"x", (1, "a"), Colour.RED, Tag.ADD]),
        st.builds(StrSub, _SHORT_TEXT),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.one_of(_KEYS, st.integers(0, 3), st.none()), inner, max_size=3),
    ),
    max_leaves=6,
)
"""What python callers may put in an `Any` field: NaN, bytes, tuples, enums, int keys."""


class Gen:
    """Strategies for values valid for an annotation; `instances`: nested light models as
    instances as well as dicts; `odd`: floats may be NaN or infinite, and `Any` fields hold
    non-JSON python values."""

    def __init__(self, *, instances: bool, odd: bool = False) -> None:
        self.instances = instances
        self.any = ODD_ANY if odd else JSON_VALUES
        self.floats = st.floats() if odd else _FLOATS
        self._models: dict[tuple[type, str | None], st.SearchStrategy[dict[str, Any]]] = {}

    def value(self, tp: Any, info: FieldInfo | None = None) -> st.SearchStrategy[Any]:
        base = self._value(tp, info.discriminator if info is not None else None)
        if info is not None and (info.constraints or info.kwargs.get("min_length")):
            return base.filter(functools.partial(keeps, info))
        return base

    def _value(self, tp: Any, tag: str | None = None) -> st.SearchStrategy[Any]:
        if tp is Any or tp is object:
            return self.any
        if tp is str:
            return _SHORT_TEXT
        if tp is int:
            return _INTS
        if tp is float:
            return self.floats
        if tp is bool:
            return st.booleans()
        if tp is None or tp is type(None):
            return st.none()
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is typing.Annotated:
            metas = [m for m in tp.__metadata__ if isinstance(m, FieldInfo)]
            for meta in metas:
                tag = meta.discriminator or tag
            inner = self._value(args[0], tag)
            for meta in metas:
                inner = inner.filter(functools.partial(keeps, meta))
            return inner
        if origin is typing.Literal:
            return st.sampled_from(args)
        if origin in (typing.Union, types.UnionType):
            return st.one_of([self._value(a, tag) for a in args])
        if origin is list:
            return st.lists(self._value(args[0]) if args else self.any, max_size=3)
        if origin is dict:
            return st.dictionaries(_KEYS, self._value(args[1]) if args else self.any, max_size=3)
        if is_light(tp):
            data = self.data(tp, tag)
            if self.instances:
                return st.one_of(data, data.map(functools.partial(reference_light, tp)))
            return data
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return st.sampled_from(list(tp))
        raise AssertionError(f"no strategy for annotation {tp!r}")

    def data(self, cls: type[Model], tag: str | None = None) -> st.SearchStrategy[dict[str, Any]]:
        """Input dicts for `cls`: its required fields (and `tag`, a discriminated union's
        field), some of the others."""
        found = self._models.get((cls, tag))
        if found is None:
            fields = spec_of(cls).fields
            required = {
                n: self.value(f.annotation, f)
                for n, f in fields.items()
                if f.is_required() or n == tag
            }
            optional = {
                n: self.value(f.annotation, f) for n, f in fields.items() if n not in required
            }
            found = self._models[cls, tag] = st.fixed_dictionaries(required, optional=optional)
        return found


_LIMITS = {"ge": operator.ge, "gt": operator.gt, "le": operator.le, "lt": operator.lt}


def keeps(info: FieldInfo, value: Any) -> bool:
    """Whether `value` keeps `info`'s numeric limits and minimum length (None passes)."""
    if value is None:
        return True
    limits = info.constraints
    if isinstance(value, float) and value != value and limits:
        return False
    if not all(_LIMITS[k](value, bound) for k, bound in limits.items()):
        return False
    least = info.kwargs.get("min_length")
    return least is None or len(value) >= least


def reference_light(cls: type[Model], data: dict[str, Any]) -> Any:
    """A light instance as pydantic builds it; `data` itself when pydantic rejects it
    (the enclosing input is then invalid, as intended)."""
    try:
        return to_light(pure(cls)(**to_pure(data)))
    except pydantic.ValidationError:
        return data


# ---------------------------------------------------------------- near misses

WRONG: list[Any] = [
    *(0, 1, -1, 2**64, 0.0, -0.0, 1.0, 1.5, -2.5, True, False),
    *("", "1", "1.5", "x", "true", StrSub("add"), Tag.ADD, Tag.TEXT, Colour.RED, Colour.ONE),
    *(None, [], {}, ["x"], [1], {"a": 1}, {"type": "bogus"}, {"type": 1}, {"mode": "nope"}),
    *(b"x", ("x",), {"x"}, object),
]
"""Values of the wrong type, or ones pydantic converts, or broken tagged dicts."""

EXTRA_KEYS = ["extra", "type", "mode", "id", "0", "command", "url"]


def bent(value: Any) -> list[Any]:
    """Near misses for `value`: the same thing in a type pydantic may convert."""
    kind = type(value)
    if kind is bool:
        return [int(value), str(value).lower(), float(value)]
    if kind is int:
        return [float(value), str(value), bool(value), StrSub(str(value))]
    if kind is float:
        floats: list[Any] = [str(value), StrSub(str(value))]
        return floats + ([int(value)] if math.isfinite(value) else [])
    if kind is str:
        strs: list[Any] = [StrSub(value), value.encode(), bytearray(value.encode())]
        return strs + [tag for tag in Tag if tag.value == value]
    if kind is list:
        return [tuple(value), {}]
    if kind is dict:
        return [list(value.items()), [], dict.fromkeys(value, None)]
    return [dict(value), value.model_dump()] if hasattr(value, "model_dump") else [None]


def places(tree: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every dict key and list item in `tree` (light instances are leaves)."""
    out: list[tuple[Any, ...]] = []
    if type(tree) is dict:
        for key, value in tree.items():
            out.append((*path, key))
            out.extend(places(value, (*path, key)))
    elif type(tree) is list:
        for index, value in enumerate(tree):
            out.append((*path, index))
            out.extend(places(value, (*path, index)))
    return out


def containers(tree: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every dict in `tree`, itself included."""
    out = [path] if type(tree) is dict else []
    if type(tree) in (dict, list):
        items = tree.items() if type(tree) is dict else enumerate(tree)
        for key, value in items:
            out.extend(containers(value, (*path, key)))
    return out


def at(tree: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        tree = tree[step]
    return tree


def bend_once(
    draw: Callable[[st.SearchStrategy[Any]], Any], data: dict[str, Any]
) -> dict[str, Any]:
    """`data` (a fresh copy: changed in place) bent at one place at any depth: a value
    replaced by a wrong one or a near miss, a key dropped, or an extra key added."""
    how = draw(st.sampled_from(["replace", "bend", "drop", "extra"]))
    spots = places(data)
    if how == "extra" or not spots:
        where = draw(st.sampled_from(containers(data)))
        key = draw(st.sampled_from(EXTRA_KEYS))
        at(data, where)[key] = draw(st.sampled_from(WRONG))
        return data
    path = draw(st.sampled_from(spots))
    parent, last = at(data, path[:-1]), path[-1]
    if how == "drop":
        del parent[last]
    elif how == "bend":
        parent[last] = draw(st.sampled_from(bent(parent[last])))
    else:
        parent[last] = draw(st.sampled_from(WRONG))
    return data
