"""Property tests: light models read JSON text, strict input and odd objects as pydantic does.

`model_validate_json` gets a valid input's JSON text changed at the text level (NaN,
Infinity, huge or negative-zero numbers, duplicate keys, escapes of lone surrogates and NUL,
a BOM, trailing garbage, other encodings, invalid UTF-8); `model_validate(..., strict=True)`
gets near-valid input; `model_validate` gets objects that are not dicts. Each outcome must be
the plain pydantic model's.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codex_core.protocol.events import AgentMessageEvent, Event
from tests.unit.test_lite_strategies import Gen, bend_once
from tests.unit.test_lite_support import (
    CLASSES,
    assert_same,
    lite_settings,
    outcome,
    pure,
    to_pure,
    tolerated,
)

SETTINGS = lite_settings(4)
JSONABLE = Gen(instances=False)
VALID = Gen(instances=True)

TEXT_EDITS = [
    lambda t: t.replace("0", "NaN", 1),
    lambda t: t.replace("0", "Infinity", 1),
    lambda t: t.replace("0", "1e400", 1),
    lambda t: t.replace("0", "-0", 1),
    lambda t: t.replace("0", "0.0", 1),
    lambda t: t.replace("0", "123456789012345678901234567890", 1),
    lambda t: t[:-1] + ', "type": "x"}' if t.endswith("}") else t,
    lambda t: t[:-1] + ', "type": null}' if t.endswith("}") else t,
    lambda t: t.replace('"', '"\\ud800', 2).replace('\\ud800"', '"', 1),
    lambda t: t.replace('""', '"\\u0000"', 1),
    lambda t: "\ufeff" + t,
    lambda t: t + " x",
    lambda t: " \n" + t + "\n ",
    lambda t: t.replace("a", "\u00e9", 1),
]
ENCODINGS = ["str", "utf-8", "utf-16", "utf-32", "latin-1", "bad-utf8"]


def encoded(text: str, how: str) -> str | bytes:
    if how == "str":
        return text
    if how == "bad-utf8":
        return text.encode("utf-8", "surrogatepass") + b"\xff"
    return text.encode(how, "surrogatepass" if how.startswith("utf") else "replace")


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
@SETTINGS
@given(data=st.data())
def test_lite_json_text_as_pydantic(cls: Any, data: st.DataObject) -> None:
    text = json.dumps(data.draw(JSONABLE.data(cls), label="input"), ensure_ascii=False)
    edit = data.draw(st.sampled_from(TEXT_EDITS), label="edit")
    raw = encoded(edit(text), data.draw(st.sampled_from(ENCODINGS), label="encoding"))
    light = {"json": outcome(lambda: cls.model_validate_json(raw))}
    plain = {"json": outcome(lambda: pure(cls).model_validate_json(raw))}
    assert_same(tolerated(light), tolerated(plain), raw)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
@SETTINGS
@given(data=st.data())
def test_lite_json_strict_validation_as_pydantic(cls: Any, data: st.DataObject) -> None:
    valid = data.draw(VALID.data(cls), label="valid")
    for given_data in (valid, bend_once(data.draw, copy.deepcopy(valid))):
        assert_same(*strict_outcomes(cls, given_data), given_data)


def strict_outcomes(cls: Any, data: dict[str, Any]) -> tuple[Any, Any]:
    light = {"strict": outcome(lambda: cls.model_validate(data, strict=True))}
    plain = {"strict": outcome(lambda: pure(cls).model_validate(to_pure(data), strict=True))}
    return tolerated(light), tolerated(plain)


ODD_OBJECTS: list[Any] = [
    None,
    0,
    "x",
    b"{}",
    [],
    [("message", "x")],
    (("message", "x"),),
    {"message", "x"},
    AgentMessageEvent(message="x"),
    Event(id="1", msg=AgentMessageEvent(message="x")),
]


@pytest.mark.parametrize(
    "obj", ODD_OBJECTS, ids=lambda obj: repr(sorted(obj) if isinstance(obj, set) else obj)
)
# (a set's repr follows string hashing, which differs between processes: xdist's workers
# must collect the same ids)
@pytest.mark.parametrize("cls", [AgentMessageEvent, Event], ids=lambda cls: cls.__name__)
def test_lite_json_validate_odd_objects_as_pydantic(cls: Any, obj: Any) -> None:
    light = {"validate": outcome(lambda: cls.model_validate(obj))}
    plain = {"validate": outcome(lambda: pure(cls).model_validate(to_pure(obj)))}
    assert_same(light, plain, obj)
