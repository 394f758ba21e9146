"""Property tests: a light model given near-valid or invalid input does what pydantic does.

Valid inputs (see test_lite_models) are bent at one place, at any depth: a value of the wrong
type or one pydantic converts (an int for a float, a bool for an int, digits for an int, a str
subclass or enum for a str or Literal), a required field removed, an extra key added (under
extra "ignore", "allow" and "forbid"), a number out of its field's range, an unknown or
missing discriminator tag. Either both sides give the same result, or both raise pydantic's
ValidationError with the same errors.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.unit.test_lite_support import (
    CLASSES,
    Colour,
    Gen,
    StrSub,
    Tag,
    assert_same,
    light_outcomes,
    pure_outcomes,
    tolerated,
)

SETTINGS = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    database=None,
    # a failure names its first difference; shrinking a whole config.toml takes minutes
    phases=[Phase.explicit, Phase.generate],
)
VALID = Gen(instances=True)

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


@st.composite
def near_valid(draw: st.DrawFn, cls: type) -> dict[str, Any]:
    """A valid input for `cls`, then bent at one place."""
    data = copy.deepcopy(draw(VALID.data(cls)))
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


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
@SETTINGS
@given(data=st.data())
def test_lite_models_near_valid_input_as_pydantic(cls: Any, data: st.DataObject) -> None:
    given_data = data.draw(near_valid(cls), label="input")
    light, pure = light_outcomes(cls, given_data), pure_outcomes(cls, given_data)
    assert_same(tolerated(light), tolerated(pure), given_data)


def test_lite_models_bent_values_cover_each_scalar() -> None:
    assert bent(True) == [1, "true", 1.0]
    assert 5.0 in bent(5) and "5" in bent(5)
    assert Tag.ADD in bent("add")
