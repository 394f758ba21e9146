"""Keep what the interpreter compiles while modules load, as `.pyc` files keep the modules.

Three things are compiled from text on every start, the same text every time:
- Python 3.11's `dataclasses` writes each generated method (`__init__`, `__repr__`, `__eq__`,
  a frozen class's `__setattr__`/`__delattr__`, ...) as source and compiles it with `exec`
  when the class is created: a few hundred classes before a session's first model request,
  a fifth of the CPU `codex exec` spent before sending it (py-spy profile; issue 29);
- `re` parses each pattern compiled at import (~130 before exec's first request: 5-8% of it)
  into the program its matcher runs;
- `typing` compiles each string annotation it is handed into an expression (a `ForwardRef`):
  every field of every `TypedDict` in a module written with `from __future__ import
  annotations` — pydantic-core's schema types alone are ~600, ~5% of exec's instructions
  before its first request — and `collections.namedtuple` evaluates a line of text per class.
`install` points the `exec` that `dataclasses` calls at one that looks the text up in a table
of compiled code objects, `re`'s compiler at one that looks the pattern (and flags) up in a
table of the arguments it gave the matcher's constructor, and the `compile` of `typing` and
the `eval` of `collections` at a table of expression code. The tables live in one file
in `__pycache__` beside this module (marshalled, one per interpreter and optimisation level,
headed by the bytecode and regex-engine versions) and are written back at exit when a run
compiled something new.

What comes out is what compiling gives: a method's code is compiled as `dataclasses` compiles
it (file "<string>", no `__future__` flags) and run in the same globals and namespace, an
expression's as `typing` and `namedtuple` compile it ("<string>", mode "eval"); a
pattern's arguments are the ones this interpreter's own compiler produced for the same
pattern and flags (recorded as it calls the engine). A missing, stale or damaged file only
means compiling again; a read-only install (or PYTHONDONTWRITEBYTECODE) is never written to.
The file sits with the package's bytecode, inside what the sandbox keeps read-only, and is
trusted as much as the bytecode is. Not cached: patterns compiled with re.DEBUG, and the
warnings a pattern's parse may raise (only the first run shows them).

Standard library only: the console script installs it before anything else loads.
"""

from __future__ import annotations

import atexit
import marshal
import sys
import threading
from array import array
from importlib._bootstrap_external import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

from codex_core.pycache_files import tagged, write_new

MAX_ENTRIES = 8000
"""More than this (many versions' entries collected over time): start over with this run's."""

_FORMAT = 4
"""Bumped when the file's layout changes."""

_methods: dict[str, CodeType] = {}
_patterns: dict[tuple[str, Any, int], tuple[Any, ...]] = {}
_expressions: dict[str, CodeType] = {}
_used: set[Any] = set()
_state = {"loaded": 0, "new": 0, "pattern_hits": 0}
_where: list[Path] = []
_pattern_lock = threading.RLock()


def cache_file(kind: str = "main") -> Path:
    """Where this interpreter's tables for one kind of process live: `__pycache__` beside
    this module. Each kind (the TUI, `exec`, the app-server, ...) keeps its own: loading
    unmarshals every code object of a table, and what the others compile is not needed."""
    name = f"{tagged('compiled-at-import')}.{kind}.marshal"
    return Path(__file__).parent / "__pycache__" / name


def _header() -> bytes:
    import _sre

    engine_version: int = _sre.MAGIC
    return MAGIC_NUMBER + bytes([_FORMAT]) + engine_version.to_bytes(4, "little")


def _load(path: Path) -> None:
    try:
        data = path.read_bytes()
    except OSError:
        return
    header = _header()
    if not data.startswith(header):
        return
    try:
        methods, patterns, expressions = marshal.loads(data[len(header) :])
    except (EOFError, ValueError, TypeError):
        return
    if not all(isinstance(table, dict) for table in (methods, patterns, expressions)):
        return
    for kept, table in ((_methods, methods), (_expressions, expressions)):
        kept.update(
            (text, code)
            for text, code in table.items()
            if isinstance(text, str) and isinstance(code, CodeType)
        )
    _patterns.update(
        (key, args)
        for key, args in patterns.items()
        if isinstance(key, tuple) and isinstance(args, tuple) and len(args) == 6
    )
    _state["loaded"] = len(_methods) + len(_patterns) + len(_expressions)


def cached_exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    """`exec` for `dataclasses`: source text is compiled once, then taken from the table."""
    if type(source) is str:
        code = _methods.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _methods[source] = code
            _state["new"] += 1
        _used.add(source)
        source = code
    exec(source, globals, locals)


def _expression(source: str) -> CodeType:
    code = _expressions.get(source)
    if code is None:
        code = compile(source, "<string>", "eval", dont_inherit=True)
        _expressions[source] = code
        _state["new"] += 1
    _used.add(("eval", source))
    return code


def cached_compile(
    source: Any,
    filename: Any,
    mode: str,
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
    **kwargs: Any,
) -> Any:
    """`compile` for `typing`: an annotation's expression text is compiled once, then taken
    from the table; any other use goes to the builtin unchanged."""
    if type(source) is str and filename == "<string>" and mode == "eval":
        if not flags and optimize == -1 and not kwargs:
            return _expression(source)
    return compile(source, filename, mode, flags, dont_inherit, optimize, **kwargs)


def cached_eval(source: Any, globals: Any = None, locals: Any = None, /) -> Any:
    """`eval` for `collections` (`namedtuple`'s `__new__`): the text from the table."""
    if type(source) is str:
        source = _expression(source)
    return eval(source, globals, locals)


class _Recorder:
    """Stands in for `_sre` inside `re._compiler` while it compiles one pattern: keeps the
    arguments it passes to the engine's constructor."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.args: tuple[Any, ...] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def compile(self, *args: Any) -> Any:
        self.args = args
        return self.engine.compile(*args)


def _pattern_compiler(compiler: Any, original: Any) -> Any:
    engine = compiler._sre

    def compile_pattern(p: Any, flags: int = 0) -> Any:
        if type(p) not in (str, bytes) or flags & 128:  # a parsed pattern, or re.DEBUG
            return original(p, flags)
        key = (type(p).__name__, p, int(flags))
        args = _patterns.get(key)
        if args is not None:
            _used.add(key)
            _state["pattern_hits"] += 1
            flags_, code, groups, groupindex, indexgroup = args[1:]
            return engine.compile(p, flags_, _ops(code), groups, groupindex, indexgroup)
        with _pattern_lock:  # one recorder at a time: each keeps its own pattern's arguments
            recorder = _Recorder(engine)
            compiler._sre = recorder
            try:
                compiled = original(p, flags)
            finally:
                compiler._sre = engine
        kept = _plain(recorder.args)
        if kept is not None:
            _patterns[key] = kept
            _used.add(key)
            _state["new"] += 1
        return compiled

    return compile_pattern


def _plain(args: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
    """The engine's arguments as plain values marshal keeps (flags may be a `RegexFlag`,
    opcodes are named int constants); None if they are not what 3.11-3.13 pass (then the
    pattern is simply not kept)."""
    if args is None or len(args) != 6:
        return None
    pattern, flags, code, groups, groupindex, indexgroup = args
    try:
        plain = (
            pattern,
            int(flags),
            array("I", [int(op) for op in code]).tobytes(),  # packed: loads as one copy
            int(groups),
            dict(groupindex),
            tuple(indexgroup),
        )
        marshal.dumps(plain)
    except (TypeError, ValueError, OverflowError):
        return None
    return plain


def _ops(packed: bytes) -> list[int]:
    """A pattern's program as the list of opcodes the engine takes."""
    return array("I", packed).tolist()


def save() -> None:
    """Write the tables back if this run compiled something new (atomic; errors ignored)."""
    if not _state["new"] or sys.dont_write_bytecode:
        return
    methods, patterns, expressions = _methods, _patterns, _expressions
    if len(methods) + len(patterns) + len(expressions) > MAX_ENTRIES:
        methods = {text: code for text, code in methods.items() if text in _used}
        patterns = {key: args for key, args in patterns.items() if key in _used}
        expressions = {t: code for t, code in expressions.items() if ("eval", t) in _used}
    path = _where[0] if _where else cache_file()
    try:
        data = marshal.dumps((methods, patterns, expressions))
    except ValueError:  # something unmarshallable got in
        return
    if not write_new(path, [_header(), data]):
        return
    _state["new"] = 0


def install(path: Path | None = None, kind: str = "main") -> None:
    """Route dataclass-method, pattern and annotation compilation through the tables (once
    per process).

    `path`: the tables' file (tests); by default `cache_file(kind)`.
    """
    import collections
    import dataclasses
    import re._compiler as compiler
    import typing

    if getattr(dataclasses, "exec", None) is cached_exec:
        return
    _where[:] = [path or cache_file(kind)]
    _load(_where[0])
    # `dataclasses`, `typing` and `collections` call the builtins by their global names: a
    # module global of that name is what their functions find first (each module calls that
    # builtin in the one place named above). `re` calls its compiler module's `compile` by
    # attribute. Nothing else in these modules is changed.
    dataclasses.exec = cached_exec  # type: ignore[attr-defined]
    typing.compile = cached_compile  # type: ignore[attr-defined]
    collections.eval = cached_eval  # type: ignore[attr-defined]
    compiler.compile = _pattern_compiler(compiler, compiler.compile)
    atexit.register(save)
