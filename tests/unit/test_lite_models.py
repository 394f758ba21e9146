"""Property tests: a light model built from valid input is exactly what pydantic builds.

For every light class in codex_core, inputs generated from its fields' annotations give the
same values, fields set, dumps (python and JSON mode, with and without None) and errors
through `cls(**data)`, `model_validate` and `model_validate_json` as the class's pydantic
twin (the pydantic model it was until issue 29) gives for the same input.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.test_lite_strategies import Gen
from tests.unit.test_lite_support import (
    CLASSES,
    assert_same,
    light_outcomes,
    lite_settings,
    pure_outcomes,
)

SETTINGS = lite_settings(12)

# Nested light models arrive as dicts and as instances (built by pydantic, turned light).
VALID = Gen(instances=True)


def test_lite_models_all_found() -> None:
    names = {cls.__name__ for cls in CLASSES}
    assert {"Event", "Submission", "ConfigToml", "ModelProviderInfo", "GranularApproval"} <= names
    assert len(CLASSES) > 100


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
@SETTINGS
@given(data=st.data())
def test_lite_models_valid_input_as_pydantic(cls: Any, data: st.DataObject) -> None:
    given_data = data.draw(VALID.data(cls), label="input")
    assert_same(light_outcomes(cls, given_data), pure_outcomes(cls, given_data), given_data)
