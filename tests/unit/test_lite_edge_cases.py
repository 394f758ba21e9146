"""Where light models and pydantic differed (found by the property tests), now the same.

Each test is the smallest case found: the light class's result against the same class as a
plain pydantic model (`tests.unit.test_lite_support.pure`). The last tests are the valid-input
property with odd values (NaN/inf floats, non-JSON `Any` values, tomlkit tables) and no
tolerance. Known differences left (no caller meets them; README): JSON input to pydantic's
own models holding a light class reports `model_attributes_type` where pydantic said
`dict_type` (same message); pydantic's own serialisers do not know a light instance held in
`Any`; `model_construct` with a dict for a model field cannot be dumped to JSON text.
"""

from __future__ import annotations

import collections
import math
import tomllib
from collections.abc import Callable
from typing import Any

import pytest
import tomlkit
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from codex_core.config.schema import ConfigToml
from codex_core.policies import GranularApproval, ReadOnlyPolicy
from codex_core.protocol.events import (
    AgentMessageEvent,
    ExecCommandEndEvent,
    SessionConfiguredEvent,
    TokenCountEvent,
)
from codex_core.protocol.review import ReviewFinding
from codex_core.protocol.tool_events import McpInvocation
from tests.unit.test_lite_strategies import Gen
from tests.unit.test_lite_support import (
    CLASSES,
    assert_same,
    light_outcomes,
    outcome,
    pure,
    pure_outcomes,
    to_pure,
)

Pair = collections.namedtuple("Pair", "a b")


def same(light: Callable[[], Any], pydantic_: Callable[[], Any]) -> None:
    assert outcome(light) == outcome(pydantic_)


@pytest.mark.parametrize("value", [math.inf, math.nan], ids=repr)
def test_lite_edge_float_field_inf_dumped_in_json_mode(value: float) -> None:
    # pydantic keeps inf/nan in a float field's model_dump(mode="json") (null only in JSON text)
    same(
        lambda: ReviewFinding(title="", confidence_score=value).model_dump(mode="json"),
        lambda: pure(ReviewFinding)(title="", confidence_score=value).model_dump(mode="json"),
    )


def test_lite_edge_union_member_error_location() -> None:
    # light: loc ('approval_policy', 'function-wrap[GranularToml()]'); pydantic: 'GranularToml'
    data: dict[str, Any] = {"approval_policy": "add"}
    same(lambda: ConfigToml(**data), lambda: pure(ConfigToml)(**data))


@pytest.mark.parametrize("key", [1, None, 1.5, True, (1, 2)], ids=repr)
def test_lite_edge_any_dict_keys_in_json_mode(key: Any) -> None:
    # pydantic writes a non-str key of a dict held by Any as a string in JSON mode
    same(
        lambda: TokenCountEvent(rate_limits={"k": {key: 1}}).model_dump(mode="json"),
        lambda: pure(TokenCountEvent)(rate_limits={"k": {key: 1}}).model_dump(mode="json"),
    )


def test_lite_edge_model_copy_unknown_key() -> None:
    # extra="ignore": pydantic's dump leaves out a key model_copy(update=) added
    same(
        lambda: AgentMessageEvent(message="x").model_copy(update={"foo": 1}).model_dump(),
        lambda: pure(AgentMessageEvent)(message="x").model_copy(update={"foo": 1}).model_dump(),
    )


def _assign(model: Any) -> Any:
    model.stdout = "o"
    return sorted(model.model_fields_set)


def test_lite_edge_assignment_marks_field_set() -> None:
    same(
        lambda: _assign(ExecCommandEndEvent(call_id="c", exit_code=0)),
        lambda: _assign(pure(ExecCommandEndEvent)(call_id="c", exit_code=0)),
    )


def _assign_unknown(model: Any) -> Any:
    model.foo = 1
    return model.model_dump()


def test_lite_edge_assignment_of_unknown_field() -> None:
    # pydantic: ValueError '"AgentMessageEvent" object has no field "foo"'
    same(
        lambda: _assign_unknown(AgentMessageEvent(message="x")),
        lambda: _assign_unknown(pure(AgentMessageEvent)(message="x")),
    )


def _assign_frozen(model: Any) -> None:
    model.rules = True


def test_lite_edge_frozen_assignment_error() -> None:
    # light: TypeError; pydantic: ValidationError (frozen_instance)
    fields = {"sandbox_approval": True, "rules": False, "mcp_elicitations": True}
    same(
        lambda: _assign_frozen(GranularApproval(**fields)),
        lambda: _assign_frozen(pure(GranularApproval)(**fields)),
    )


def test_lite_edge_str() -> None:
    # pydantic's str(): "type='agent_message' message='x'"; light's is its repr
    same(
        lambda: f"{AgentMessageEvent(message='x')}",
        lambda: f"{pure(AgentMessageEvent)(message='x')}",
    )


@pytest.mark.parametrize(
    "policy",
    [
        ReadOnlyPolicy.model_construct(mode="danger-full-access"),
        ReadOnlyPolicy().model_copy(update={"mode": "workspace-write"}),
    ],
    ids=["construct", "copy"],
)
def test_lite_edge_tagged_union_instance_with_another_tag(policy: Any) -> None:
    # pydantic picks the member by the instance's tag and refuses another class's instance
    # (model_type: 'Input should be a valid dictionary or instance of DangerFullAccessPolicy');
    # light refuses it too: a ReadOnlyPolicy saying mode="danger-full-access" does not pass
    data = {"session_id": "s", "model": "m", "sandbox_policy": policy}
    same(
        lambda: SessionConfiguredEvent(**data),
        lambda: pure(SessionConfiguredEvent)(**to_pure(data)),
    )


ODD = Gen(instances=True, odd=True)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    database=None,
    phases=[Phase.explicit, Phase.generate],
)
@given(data=st.data())
def test_lite_edge_odd_values_as_pydantic(cls: Any, data: st.DataObject) -> None:
    given_data = data.draw(ODD.data(cls), label="input")
    assert_same(light_outcomes(cls, given_data), pure_outcomes(cls, given_data), given_data)


@pytest.mark.parametrize(
    "value",
    [tomlkit.parse("k = [3]")["k"], collections.defaultdict(int, a=1), Pair(1, 2)],
    ids=["tomlkit-array", "defaultdict", "namedtuple"],
)
def test_lite_edge_any_container_subclass_python_dump(value: Any) -> None:
    # pydantic's python-mode dump of an Any value makes list/dict/tuple subclasses plain
    same(
        lambda: McpInvocation(server="s", tool="t", arguments=value).model_dump(),
        lambda: pure(McpInvocation)(server="s", tool="t", arguments=value).model_dump(),
    )


def _without_none(value: Any) -> Any:
    if type(value) is dict:
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if type(value) is list:
        return [_without_none(v) for v in value if v is not None]
    return value


TABLES = [cls for cls in CLASSES if cls.__module__ in ("codex_core.config.schema",)]
TABLES += [cls for cls in CLASSES if cls.__name__ == "ModelProviderInfo"]


@pytest.mark.parametrize("cls", TABLES, ids=lambda cls: cls.__name__)
@settings(
    max_examples=10,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_lite_edge_tomlkit_tables_as_pydantic(cls: Any, data: st.DataObject) -> None:
    # a tomlkit document (dict and str/int/bool subclasses, as config edits hold) and the
    # plain tomllib reading of the same text: a tomlkit Array/Table in a dict[str, Any] field
    # stays one in light's python-mode dump, pydantic's is a list/dict
    table = _without_none(data.draw(Gen(instances=False).data(cls), label="table"))
    try:
        text = tomlkit.dumps(table)
        doc, plain_doc = tomlkit.parse(text), tomllib.loads(text)
    except Exception:  # noqa: BLE001 - not writable as TOML (huge ints, odd keys)
        assume(False)
        raise
    for given_data in (doc, plain_doc):
        assert_same(*validated(cls, given_data), text)


def validated(cls: Any, data: Any) -> tuple[Any, Any]:
    light = {"validate": outcome(lambda: cls.model_validate(data))}
    return light, {"validate": outcome(lambda: pure(cls).model_validate(data))}
