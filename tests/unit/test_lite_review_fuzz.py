"""Seeded differential fuzz of the light models (issue 29 review): near-valid hostile input
for the unions codex parses from the wire and from rollouts (sandbox policies, ops, events,
response items) and for config.toml's strict tables, judged by the light path and by pydantic
alone. Whatever one accepts the other accepts with the same value (light instances all the
way down, no twin inside); whatever pydantic refuses the light path refuses with
`ValidationError` and nothing else.

Inputs are built from each class's fields, each value sometimes replaced by a hostile one
(str/int subclasses, bool for int, NaN, huge ints, bytes, tuples, dict subclasses, unknown
keys, wrong or subclassed tags). A fixed seed per batch keeps failures reproducible.
"""

from __future__ import annotations

import math
import random
import types
import typing
from collections.abc import Callable
from typing import Any

import pydantic
import pytest
from pydantic import TypeAdapter

from codex_core import lite
from codex_core.config.schema import ConfigToml
from codex_core.lite.twin import rewrite, twin
from codex_core.model_provider import ModelProviderInfo
from codex_core.policies import (
    SANDBOX_POLICY,
    GranularApproval,
    SandboxPolicy,
    WorkspaceWritePolicy,
)
from codex_core.protocol.events import EVENT_MSG, EventMsg
from codex_core.protocol.items import _RESPONSE_ITEM, ResponseItem
from codex_core.protocol.ops import OP, Op


class Text(str):
    pass


class Number(int):
    pass


class Table(dict[str, Any]):
    pass


LEAVES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2**64,
    1.5,
    math.nan,
    math.inf,
    "",
    "a",
    "/",
    Text("a"),
    Number(2),
    b"x",
    (1,),
]
KEYS = ["a", "type", "mode", "text", "id", "zz"]


def strip(tp: Any) -> Any:
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return tp


class Maker:
    """Near-valid values for annotations, from one seeded generator."""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)

    def junk(self, depth: int = 0) -> Any:
        roll = self.rnd.random()
        if depth > 3 or roll < 0.5:
            return self.rnd.choice(LEAVES)
        if roll < 0.7:
            return [self.junk(depth + 1) for _ in range(self.rnd.randint(0, 3))]
        return {self.rnd.choice(KEYS): self.junk(depth + 1) for _ in range(self.rnd.randint(0, 3))}

    def value(self, tp: Any, depth: int = 0) -> Any:
        if self.rnd.random() < 0.15:
            return self.junk(depth)
        tp = strip(tp)
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is typing.Literal:
            first = args[0]
            return self.rnd.choice([*args, Text(first) if isinstance(first, str) else first])
        if origin in (typing.Union, types.UnionType):
            return self.value(self.rnd.choice(args), depth)
        if origin is list or tp is list:
            item = args[0] if args else Any
            return [self.value(item, depth + 1) for _ in range(self.rnd.randint(0, 2))]
        if origin is dict or tp is dict:
            item = args[1] if args else Any
            count = self.rnd.randint(0, 2)
            return {self.rnd.choice(["k", "x"]): self.value(item, depth + 1) for _ in range(count)}
        if isinstance(tp, type) and hasattr(tp, "__lite_fast__") and depth < 4:
            return self.model(tp, depth + 1)
        plain = {str: "s", int: 3, float: 2.5, bool: True}
        return plain.get(tp, "s") if self.rnd.random() < 0.7 else self.rnd.choice(LEAVES)

    def model(self, cls: type, depth: int = 0) -> Any:
        data: dict[str, Any] = {}
        for name, info in cls.model_fields.items():  # type: ignore[attr-defined]
            if info.is_required() or self.rnd.random() < 0.5:
                data[name] = self.value(info.annotation, depth)
        if self.rnd.random() < 0.2:
            data[self.rnd.choice(KEYS)] = self.junk()
        if self.rnd.random() < 0.05:
            return Table(data)
        return data


def outcome(call: Callable[..., Any], data: Any, **options: Any) -> tuple[Any, ...]:
    try:
        value = call(data, **options)
    except lite.ValidationError:
        return ("refused",)
    return ("ok", type(value).__name__, repr(value.model_dump()), sorted(value.model_fields_set))


def twin_inside(value: Any) -> bool:
    """Whether a pydantic instance (a twin's) hides in a light result: `isinstance` checks on
    policies (`DangerFullAccessPolicy`, ...) would then fail."""
    if isinstance(value, pydantic.BaseModel):
        return True
    if isinstance(value, lite.Model):
        return twin_inside(list(value.__dict__.values()))
    if isinstance(value, (list, tuple)):
        return any(twin_inside(v) for v in value)
    if isinstance(value, dict):
        return any(twin_inside(v) for v in value.values())
    return False


def light_outcome(call: Callable[..., Any], data: Any, **options: Any) -> tuple[Any, ...]:
    got = outcome(call, data, **options)
    if got[0] == "ok":
        value = call(data, **options)
        assert isinstance(value, lite.Model) and not twin_inside(value), (data, value)
    return got


UNIONS: dict[str, tuple[Any, Any, str]] = {
    "sandbox_policy": (SANDBOX_POLICY, SandboxPolicy, "mode"),
    "op": (OP, Op, "type"),
    "event_msg": (EVENT_MSG, EventMsg, "type"),
    "response_item": (_RESPONSE_ITEM, ResponseItem, "type"),
}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("name", sorted(UNIONS))
def test_lite_review_union_fuzz_as_pydantic(name: str, seed: int) -> None:
    light, annotation, tag = UNIONS[name]
    pure = TypeAdapter(rewrite(annotation))
    members = typing.get_args(strip(annotation))
    make = Maker(seed * 1000 + len(name))
    accepted = 0
    for _ in range(150):
        kind = make.rnd.choice(members)
        data = make.model(kind)
        if isinstance(data, dict) and make.rnd.random() < 0.9:
            data.setdefault(tag, typing.get_args(strip(kind.model_fields[tag].annotation))[0])
        got = light_outcome(light.validate_python, data)
        assert got == outcome(pure.validate_python, data), data
        accepted += got[0] == "ok"
    assert accepted > 10  # the fuzz reaches the fast path, not only refusals


STRICT_TABLES = [ConfigToml, GranularApproval, WorkspaceWritePolicy, ModelProviderInfo]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("cls", STRICT_TABLES, ids=lambda c: c.__name__)
def test_lite_review_config_fuzz_as_pydantic(cls: type, seed: int) -> None:
    made = twin(cls)
    make = Maker(seed * 7919 + len(cls.__name__))
    for index in range(120):
        data = make.model(cls)
        strict = index % 3 != 0
        got = light_outcome(cls.model_validate, data, strict=strict)  # type: ignore[attr-defined]
        assert got == outcome(made.model_validate, data, strict=strict), (strict, data)
