"""Property tests: the module-level adapters (events, ops, sandbox policies, response items)
validate and dump exactly as pydantic's `TypeAdapter` over the same type does.

Valid values come from the adapter's type (nested models as dicts and instances), near-valid
ones are those bent at one place (see test_lite_invalid); both go through `validate_python`,
`validate_json` (when the value is JSON) and the adapter's `dump_python`.
"""

from __future__ import annotations

import copy
from typing import Any

import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st

from codex_core.policies import SANDBOX_POLICY
from codex_core.protocol import EVENT_MSG, OP
from codex_core.protocol.items import _RESPONSE_ITEM
from tests.unit.test_lite_strategies import Gen, bend_once
from tests.unit.test_lite_support import (
    assert_same,
    canon,
    json_or_none,
    lite_settings,
    outcome,
    pure_type,
    to_pure,
    tolerated,
)

SETTINGS = lite_settings(30)
VALID = Gen(instances=True)
ADAPTERS: dict[str, Any] = {
    "EVENT_MSG": EVENT_MSG,
    "OP": OP,
    "SANDBOX_POLICY": SANDBOX_POLICY,
    "RESPONSE_ITEM": _RESPONSE_ITEM,
}
_PURE: dict[str, pydantic.TypeAdapter[Any]] = {}


def pure_adapter(name: str) -> pydantic.TypeAdapter[Any]:
    found = _PURE.get(name)
    if found is None:
        found = _PURE[name] = pydantic.TypeAdapter(pure_type(ADAPTERS[name]._tp))
    return found


def dumped(adapter: Any, value: Any) -> Any:
    out = []
    for mode, exclude_none in (("python", False), ("json", False), ("json", True)):
        try:
            out.append(canon(adapter.dump_python(value, mode=mode, exclude_none=exclude_none)))
        except Exception as err:  # noqa: BLE001 - compared, not hidden
            out.append(("raised", type(err).__name__, str(err)))
    return tuple(out)


def outcomes(adapter: Any, value: Any, given: Any) -> dict[str, Any]:
    """`validate_python` (with the adapter's dumps of its result) and `validate_json`."""
    out = {"python": outcome(lambda: adapter.validate_python(value))}
    if out["python"][0] == "ok":
        out["dump"] = dumped(adapter, adapter.validate_python(value))
    text = json_or_none(given)
    if text is not None:
        out["json"] = outcome(lambda: adapter.validate_json(text))
        out["json_bytes"] = outcome(lambda: adapter.validate_json(text.encode()))
    return out


def check(name: str, value: Any) -> None:
    light = outcomes(ADAPTERS[name], value, value)
    pure = outcomes(pure_adapter(name), to_pure(value), value)
    assert_same(tolerated(light), tolerated(pure), value)


@pytest.mark.parametrize("name", ADAPTERS)
@SETTINGS
@given(data=st.data())
def test_lite_adapters_valid_values_as_pydantic(name: str, data: st.DataObject) -> None:
    check(name, data.draw(VALID.value(ADAPTERS[name]._tp), label="value"))


@st.composite
def near_valid(draw: st.DrawFn, tp: Any) -> Any:
    """A valid value for `tp` bent at one place (the value itself may be replaced)."""
    box = {"value": copy.deepcopy(draw(VALID.value(tp)))}
    return bend_once(draw, box).get("value")


@pytest.mark.parametrize("name", ADAPTERS)
@SETTINGS
@given(data=st.data())
def test_lite_adapters_near_valid_values_as_pydantic(name: str, data: st.DataObject) -> None:
    check(name, data.draw(near_valid(ADAPTERS[name]._tp), label="value"))


def test_lite_adapters_the_four() -> None:
    assert all(hasattr(adapter, "_tp") for adapter in ADAPTERS.values())
