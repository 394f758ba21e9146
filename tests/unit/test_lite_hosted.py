"""Property tests: pydantic types holding light classes (the app-server's wire models hold
protocol ones) validate, dump and describe them as they did the pydantic models.

For every light class, `pydantic.TypeAdapter(cls)` and `TypeAdapter(list[cls] | None)` (which
ask the class for its schema) against the same adapters over the class as a plain pydantic
model: JSON schemas (validation and serialization, as the app-server's `generateJsonSchema`
writes them), and the outcomes of `validate_python` (`validate_json` too for valid input)
and the adapter's dumps for valid and near-valid input.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.test_lite_strategies import Gen, bend_once
from tests.unit.test_lite_support import (
    CLASSES,
    assert_same,
    canon,
    json_or_none,
    lite_settings,
    outcome,
    pure,
    to_pure,
    tolerated,
)

SETTINGS = lite_settings(4)
VALID = Gen(instances=True)


@functools.cache
def adapters(cls: Any) -> tuple[pydantic.TypeAdapter[Any], pydantic.TypeAdapter[Any]]:
    """The two adapters of `cls`, built once per class: an adapter keeps no state between
    calls, and building four per example was a tenth of this file's CPU."""
    return pydantic.TypeAdapter(cls), pydantic.TypeAdapter(list[cls] | None)


def outcomes(
    adapter: pydantic.TypeAdapter[Any], value: Any, given: Any, *, json_route: bool = False
) -> dict[str, Any]:
    out = {"python": outcome(lambda: adapter.validate_python(value))}
    if out["python"][0] == "ok":
        made = adapter.validate_python(value)
        for mode, exclude_none in (("python", False), ("json", False), ("json", True)):
            out[f"dump_{mode}_{exclude_none}"] = outcome(
                functools.partial(dumped, adapter, made, mode, exclude_none)
            )
        out["dump_json"] = outcome(lambda: adapter.dump_json(made))
    text = json_or_none(given) if json_route else None
    if text is not None:
        out["json"] = outcome(lambda: adapter.validate_json(text))
    return out


def dumped(adapter: pydantic.TypeAdapter[Any], made: Any, mode: Any, exclude_none: bool) -> Any:
    return canon(adapter.dump_python(made, mode=mode, exclude_none=exclude_none))


def check(cls: Any, data: Any, *, json_route: bool = False) -> None:
    """`data` through both adapters of `cls` and of its pydantic model; `json_route`: also
    `validate_json` (see tests/unit/test_lite_divergences.py: a wrong JSON value where a
    tagged union of light models is expected is `model_attributes_type`, not `dict_type`)."""
    for light, plain, value in zip(adapters(cls), adapters(pure(cls)), (data, [data]), strict=True):
        got = outcomes(light, value, value, json_route=json_route)
        want = outcomes(plain, to_pure(value), value, json_route=json_route)
        assert_same(tolerated(got), tolerated(want), value)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_lite_hosted_json_schema_as_pydantic(cls: Any) -> None:
    for light, plain in zip(adapters(cls), adapters(pure(cls)), strict=True):
        for mode in ("validation", "serialization"):
            got = json.dumps(light.json_schema(mode=mode))
            assert got == json.dumps(plain.json_schema(mode=mode))


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
@SETTINGS
@given(data=st.data())
def test_lite_hosted_values_as_pydantic(cls: Any, data: st.DataObject) -> None:
    valid = data.draw(VALID.data(cls), label="valid")
    check(cls, valid, json_route=True)
    check(cls, bend_once(data.draw, copy.deepcopy(valid)))
