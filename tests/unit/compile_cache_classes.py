"""Dataclasses of every generated-method kind, described for tests/unit/test_compile_cache.py.

`from __future__ import annotations` here: the generated `__init__` must still get the
annotations `dataclasses` gives it, not strings of them (the cache compiles the method text
without inheriting the caller's `__future__` flags, as `dataclasses` does).
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections import namedtuple
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Optional, TypedDict, get_type_hints


@dataclass
class Plain:
    a: int
    b: str = "x"
    c: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Frozen:
    a: int
    b: tuple[int, ...] = ()


@dataclass(order=True, kw_only=True)
class Ordered:
    a: int
    b: int = 2


@dataclass(eq=False)
class NoEq:
    a: int = 1
    extra: Any = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.a += 1


class Schema(TypedDict, total=False):
    """String annotations (this module's `__future__` import): each becomes a ForwardRef."""

    name: str
    tags: list[str]
    child: Optional[Schema]  # noqa: UP045 - a forward reference to the class itself
    starred: tuple[int, ...]


Point = namedtuple("Point", ["x", "y"], defaults=[0])


class Pair(NamedTuple):
    left: int
    right: str = "r"


def describe_annotations() -> dict[str, Any]:
    """What `typing` and `namedtuple` made of text: resolved hints and working classes."""
    return {
        "schema_raw": {k: repr(v) for k, v in Schema.__annotations__.items()},
        "schema_hints": {k: repr(v) for k, v in get_type_hints(Schema).items()},
        "point": [repr(Point(1)), Point(1, 2)._asdict(), Point._make([3, 4]).y],
        "pair": [repr(Pair(1)), get_type_hints(Pair) == {"left": int, "right": str}],
    }


def describe() -> dict[str, Any]:
    """What a user of these classes can observe."""
    out: dict[str, Any] = {"annotations": describe_annotations()}
    for cls in (Plain, Frozen, Ordered, NoEq):
        out[cls.__name__] = {
            "signature": str(inspect.signature(cls)),
            "init_annotations": {k: repr(v) for k, v in cls.__init__.__annotations__.items()},
            "methods": sorted(
                k for k in vars(cls) if k.startswith("__") and callable(vars(cls)[k])
            ),
        }
    frozen = Frozen(1)
    try:
        frozen.a = 2  # type: ignore[misc]
        out["frozen_error"] = None
    except dataclasses.FrozenInstanceError as err:
        out["frozen_error"] = str(err)
    out["values"] = [
        repr(Plain(1)),
        Plain(1) == Plain(1, "x", []),
        repr(frozen),
        hash(frozen) == hash(Frozen(1)),
        Ordered(a=1) < Ordered(a=2),
        NoEq().a,
        NoEq() == NoEq(),
    ]
    return out


PATTERNS: list[tuple[str | bytes, int]] = [
    (r"(?P<word>\w+)\s+(?P=word)", 0),
    (r"^\s*#\s*(?P<key>[a-z_]+)\s*=\s*(?P<value>.*)$", re.MULTILINE),
    (r"héllo|wörld", re.IGNORECASE),
    (r"a.b", re.DOTALL | re.ASCII),
    (
        r"""
        (\d+)   # digits
        [.,]?   # a separator
        (\d*)   # more digits
    """,
        re.VERBOSE,
    ),
    (rb"\x1b\[[0-9;]*m", 0),
    (r"(a)|(b)", 0),
]
SUBJECTS = ["hello hello world", "  # key_a = 1\n# b = two", "HÉLLO", "a\nb", "12,5 and 3", "x"]


def describe_patterns() -> list[Any]:
    """Each pattern's attributes and what it finds in each subject."""
    out: list[Any] = []
    for text, flags in PATTERNS:
        compiled = re.compile(text, flags)
        out.append(
            [
                compiled.pattern if isinstance(text, str) else text.decode(),
                int(compiled.flags),
                compiled.groups,
                dict(compiled.groupindex),
            ]
        )
        for subject in SUBJECTS:
            data: Any = subject.encode() if isinstance(text, bytes) else subject
            found = [m.span() for m in compiled.finditer(data)]
            out.append([found, [list(map(str, m.groups())) for m in compiled.finditer(data)]])
    return out
