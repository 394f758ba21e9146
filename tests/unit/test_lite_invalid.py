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
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codex_core.protocol.tool_events import McpToolCallBeginEvent, McpToolCallEndEvent
from tests.unit.test_lite_strategies import Gen, Tag, bend_once, bent
from tests.unit.test_lite_support import (
    CLASSES,
    assert_same,
    light_outcomes,
    lite_settings,
    pure_outcomes,
    tolerated,
)

SETTINGS = lite_settings(10)
VALID = Gen(instances=True)


@st.composite
def near_valid(draw: st.DrawFn, cls: type) -> dict[str, Any]:
    """A valid input for `cls`, then bent at one place."""
    return bend_once(draw, copy.deepcopy(draw(VALID.data(cls))))


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


_RESULTS: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(["", "boom", {}, {"isError": 1}, {"Ok": {}}, {"Err": "x"}, None, 0, []]),
    st.dictionaries(
        st.sampled_from(["content", "structuredContent", "structured_content", "is_error"]),
        st.sampled_from([None, [], {"a": 1}, True, "x"]),
        max_size=3,
    ),
)
_NAMES = st.sampled_from(["s", "t", "x", "", 0, None])
_LEGACY = st.fixed_dictionaries(
    {"call_id": st.sampled_from(["c", "c", "c", 1])},
    optional={
        "server": _NAMES,
        "tool": _NAMES,
        "arguments": st.sampled_from([None, {}, {"a": 1}, "x"]),
        "result": _RESULTS,
        "error": st.sampled_from([None, "", "failed", 1]),
        "invocation": st.sampled_from([{"server": "s", "tool": "t"}, {}, None]),
    },
)
"""Flat MCP events as old rollouts hold them (and near misses)."""


@pytest.mark.parametrize("cls", [McpToolCallBeginEvent, McpToolCallEndEvent], ids=str)
@settings(SETTINGS, max_examples=40)
@given(data=st.data())
def test_lite_models_legacy_mcp_events_as_pydantic(cls: Any, data: st.DataObject) -> None:
    # the before-validators read flat (pre-`invocation`) events from old rollouts
    given_data = data.draw(_LEGACY, label="input")
    light, pure = light_outcomes(cls, given_data), pure_outcomes(cls, given_data)
    assert_same(tolerated(light), tolerated(pure), given_data)
