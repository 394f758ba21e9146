"""Fast checks: does a value pass a field's annotation exactly as pydantic would keep it?

A check returns the value pydantic would produce when that takes no conversion beyond what is
structural (a dict becoming a model, a list or dict copied), and raises `Bail` otherwise —
whenever pydantic might convert, reject or report something (an int for a float, a string
for an enum, a missing field, a broken constraint, an unknown annotation). On `Bail` the
caller asks pydantic itself, so a result is either pydantic's own or one it would give.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Callable
from typing import Any

from codex_core.lite.fields import FieldInfo, collect_fields, validators

Check = Callable[[Any], Any]


class Bail(Exception):  # noqa: N818 - a signal, not an error
    """The fast check cannot decide: pydantic must."""


def _bail(value: Any) -> Any:
    raise Bail


def _same(value: Any) -> Any:
    return value


def compile_check(info: FieldInfo) -> Check:
    """The check of one field (its annotation, discriminator and numeric constraints)."""
    check = type_check(info.annotation, info.discriminator)
    extra = set(info.kwargs) - {"ge", "gt", "le", "lt", "description", "title", "examples"}
    if extra:
        return _bail
    if not info.constraints:
        return check
    return _constrained(check, info.constraints)


def _constrained(check: Check, limits: dict[str, Any]) -> Check:
    ge, gt, le, lt = (limits.get(k) for k in ("ge", "gt", "le", "lt"))

    def run(value: Any) -> Any:
        value = check(value)
        if value is None:
            return value
        if (
            (ge is not None and not value >= ge)
            or (gt is not None and not value > gt)
            or (le is not None and not value <= le)
            or (lt is not None and not value < lt)
        ):
            raise Bail
        return value

    return run


def _exact(kind: type) -> Check:
    def run(value: Any) -> Any:
        if type(value) is not kind:
            raise Bail
        return value

    return run


def _none(value: Any) -> Any:
    if value is not None:
        raise Bail
    return value


def type_check(tp: Any, discriminator: str | None = None) -> Check:
    """The check of annotation `tp`."""
    if tp is Any or tp is object:
        return _same
    if tp in (str, int, float, bool, bytes):
        return _exact(tp)
    if tp is None or tp is type(None):
        return _none
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        found = discriminator
        for meta in tp.__metadata__:
            if not isinstance(meta, FieldInfo) or meta.kwargs or meta.constraints:
                return _bail
            found = meta.discriminator or found
        return type_check(args[0], found)
    if origin is typing.Literal:
        return _literal(args)
    if origin in (typing.Union, types.UnionType):
        return _tagged(args, discriminator) if discriminator else _union(args)
    if origin is list:
        return _list(type_check(args[0]) if args else _same)
    if origin is dict:
        if args and args[0] is not str:
            return _bail
        return _dict(type_check(args[1]) if args else _same)
    if isinstance(tp, type):
        if hasattr(tp, "__lite_fast__"):
            return _model(tp)
        if issubclass(tp, enum.Enum):
            return _instance(tp)
    if tp is list:
        return _list(_same)
    if tp is dict:
        return _dict(_same)
    return _bail


def _literal(allowed: tuple[Any, ...]) -> Check:
    pairs = {(type(a), a) for a in allowed}

    def run(value: Any) -> Any:
        try:
            if (type(value), value) in pairs:
                return value
        except TypeError:
            pass
        raise Bail

    return run


def _instance(kind: type) -> Check:
    def run(value: Any) -> Any:
        if not isinstance(value, kind):
            raise Bail
        return value

    return run


def _list(item: Check) -> Check:
    def run(value: Any) -> Any:
        if type(value) is not list:
            raise Bail
        return [item(v) for v in value]

    return run


def _dict(item: Check) -> Check:
    def run(value: Any) -> Any:
        if type(value) is not dict:
            raise Bail
        out = {}
        for key, v in value.items():
            if type(key) is not str:
                raise Bail
            out[key] = item(v)
        return out

    return run


def _model(kind: type) -> Check:
    def run(value: Any) -> Any:
        if isinstance(value, kind):
            return value
        if type(value) is dict:
            return kind.__lite_fast__(value)  # type: ignore[attr-defined]
        raise Bail

    return run


def _union(members: tuple[Any, ...]) -> Check:
    """pydantic's smart union where it is plain: None, the one other member, or a member
    that keeps the value as it is."""
    nullable = type(None) in members
    rest = [m for m in members if m is not type(None)]
    if len(rest) == 1:
        only = type_check(rest[0])
        if not nullable:
            return only

        def optional(value: Any) -> Any:
            return None if value is None else only(value)

        return optional
    checks = [type_check(m) for m in rest]

    def run(value: Any) -> Any:
        if value is None and nullable:
            return None
        for check in checks:
            try:
                if check(value) is value:
                    return value
            except Bail:
                continue
        raise Bail

    return run


def _tagged(members: tuple[Any, ...], field: str) -> Check:
    """A discriminated union of models: an instance of one, or a dict naming one by `field`."""
    kinds = [m for m in members if isinstance(m, type) and hasattr(m, "__lite_fast__")]
    if len(kinds) != len(members):
        return _bail
    table: dict[str, type] = {}

    def by_tag() -> dict[str, type]:
        if not table:
            for kind in kinds:
                info = spec_of(kind).fields.get(field)
                if info is None or typing.get_origin(info.annotation) is not typing.Literal:
                    raise Bail
                for tag in typing.get_args(info.annotation):
                    table.setdefault(tag, kind)
        return table

    classes = tuple(kinds)

    def run(value: Any) -> Any:
        if isinstance(value, classes):
            tag = getattr(value, field, None)
            if type(tag) is str and by_tag().get(tag) is type(value):
                return value
            raise Bail  # its tag names another member (`model_construct`, `model_copy`)
        if type(value) is dict:
            tag = value.get(field)
            kind = by_tag().get(tag) if type(tag) is str else None
            if kind is not None:
                return kind.__lite_fast__(value)  # type: ignore[attr-defined]
        raise Bail

    return run


class Spec:
    """A class's fields, config and validators, with the fast checks compiled."""

    __slots__ = (
        "fields",
        "extra",
        "frozen",
        "strict",
        "before",
        "after",
        "checks",
        "serializer",
        "floats",
    )

    def __init__(self, cls: type) -> None:
        config = cls.__lite_config__  # type: ignore[attr-defined]
        self.extra: str = config.get("extra", "ignore")
        self.frozen: bool = bool(config.get("frozen"))
        self.strict: bool = bool(config.get("strict"))
        self.fields = collect_fields(cls)
        self.before: list[Callable[..., Any]] = []
        self.serializer: Callable[..., Any] | None = None
        self.after: dict[str, list[Callable[..., Any]]] = {}
        for validator in validators(cls):
            if validator.mode == "serializer":
                self.serializer = validator.func
            elif validator.mode == "before":
                self.before.append(validator.bound(cls))
            else:
                for name in validator.fields:
                    self.after.setdefault(name, []).append(validator.bound(cls))
        self.checks = {name: compile_check(info) for name, info in self.fields.items()}
        self.floats = frozenset(n for n, info in self.fields.items() if _floaty(info.annotation))
        """Fields declared float (or float | None): pydantic dumps their NaN and inf as they
        are, where a float inside a free-form value is written as null in JSON mode."""


def _floaty(tp: Any) -> bool:
    if typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(tp) if a is not type(None)]
        return rest == [float]
    return tp is float


_SPECS: dict[type, Spec] = {}


def spec_of(cls: type) -> Spec:
    """The class's spec, built on first use."""
    spec = _SPECS.get(cls)
    if spec is None:
        spec = _SPECS[cls] = Spec(cls)
    return spec
