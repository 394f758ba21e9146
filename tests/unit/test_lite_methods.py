"""Property tests: a light instance's methods act as pydantic's on the same instance.

For every light class, two instances validated from generated input (the light one and the
pydantic model's) are put through `model_copy(update=...)` (shallow and deep),
`model_construct`, `==`, `hash`, `repr`, `copy`/`deepcopy`, and the same outcomes (values,
fields set, dumps, errors) are expected; pickling gives back an equal light instance.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from codex_core.lite.checks import spec_of
from codex_core.policies import GranularApproval
from tests.unit.test_lite_strategies import Gen
from tests.unit.test_lite_support import (
    CLASSES,
    assert_same,
    canon,
    lite_settings,
    outcome,
    pure,
    to_pure,
)

SETTINGS = lite_settings(4)
VALID = Gen(instances=True)


def pair(cls: Any, data: dict[str, Any]) -> tuple[Any, Any]:
    """The light instance and the pydantic one for `data` (valid for both, or assumed away)."""
    try:
        return cls.model_validate(data), pure(cls).model_validate(to_pure(data))
    except Exception:  # noqa: BLE001 - invalid input: not what this test is about
        assume(False)
        raise


def validated_update(cls: Any, data: dict[str, Any]) -> dict[str, Any]:
    """The fields `data` gives, validated (as codex passes them: nested models as instances;
    neither library validates an update or `model_construct`'s values)."""
    light, _ = pair(cls, data)
    return {k: v for k, v in light if k in data and k in spec_of(cls).fields}


def methods(cls: Any, one: Any, two: Any, update: dict[str, Any]) -> dict[str, Any]:
    given = set(update)
    return {
        "copy": outcome(lambda: one.model_copy(update=update)),
        "deep": outcome(lambda: one.model_copy(update=update, deep=True)),
        "construct": outcome(lambda: type(one).model_construct(**update)),
        "construct_set": outcome(lambda: type(one).model_construct(given, **update)),
        "eq": (one == two, one == one.model_copy(), one != two),
        "hash": outcome(lambda: hash(one) == hash(one.model_copy())),
        "repr": (repr(one), repr(two)),
        "copies": (outcome(lambda: copy.copy(one)), outcome(lambda: copy.deepcopy(one))),
    }


def _pickled(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value))


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
@SETTINGS
@given(data=st.data())
def test_lite_models_methods_as_pydantic(cls: Any, data: st.DataObject) -> None:
    first = data.draw(VALID.data(cls), label="first")
    second = data.draw(VALID.data(cls), label="second")
    update = validated_update(cls, data.draw(VALID.data(cls), label="update"))
    (light_one, pure_one), (light_two, pure_two) = pair(cls, first), pair(cls, second)
    light = methods(cls, light_one, light_two, update)
    pydantic_ = methods(cls, pure_one, pure_two, to_pure(update))
    assert_same(light, pydantic_, (first, second, update))
    # pydantic cannot pickle a model made by create_model: the light one must round-trip
    back = _pickled(light_one)
    assert back == light_one and back.model_fields_set == light_one.model_fields_set


def test_lite_models_frozen_hash_follows_equality() -> None:
    one = GranularApproval(sandbox_approval=True, rules=False, mcp_elicitations=True)
    same = GranularApproval.model_validate(one.model_dump())
    other = one.model_copy(update={"rules": True})
    assert one == same and hash(one) == hash(same)
    assert one != other
    assert len({one, same, other}) == 2
    made = pure(GranularApproval)
    assert len({made(**one.model_dump()), made(**same.model_dump())}) == 1


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_lite_models_fields_as_pydantic(cls: Any) -> None:
    # config.toml's unknown-key sweep and key listing read model_fields (light FieldInfo's
    # get_default() calls the factory, as pydantic's get_default(call_default_factory=True))
    light = [
        (name, info.is_required(), None if info.is_required() else canon(info.get_default()))
        for name, info in cls.model_fields.items()
    ]
    plain = [
        (
            name,
            info.is_required(),
            None if info.is_required() else canon(info.get_default(call_default_factory=True)),
        )
        for name, info in pure(cls).model_fields.items()
    ]
    assert light == plain
