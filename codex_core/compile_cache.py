"""Keep the code dataclasses compile for their generated methods, as `.pyc` files keep modules'.

Python 3.11's `dataclasses` writes each generated method (`__init__`, `__repr__`, `__eq__`,
a frozen class's `__setattr__`/`__delattr__`, ...) as source text and compiles it with
`exec` when the class is created. codex and the libraries it loads create a few hundred
dataclasses before a session's first model request, and compiling their methods was a fifth
of the CPU `codex exec` spent before sending it (a py-spy profile; issue 29). The text is the
same on every run, so `install` points the `exec` that `dataclasses` calls at one that looks
the text up in a table of compiled code objects, kept in `__pycache__` beside this module
(marshalled like bytecode, one file per interpreter and optimisation level) and written back
at exit when the run compiled anything new.

`exec` of the cached code object, in the same globals and namespace, is what `exec` of the
text does: the key is the whole text, compiled as `exec` compiles it from `dataclasses`
(file name "<string>", no `__future__` flags). A missing, stale or damaged file only means
compiling again; a read-only install (or PYTHONDONTWRITEBYTECODE) is never written to. The
file sits with the package's bytecode and is trusted as much as it is.

Standard library only: the console script installs it before anything else loads.
"""

from __future__ import annotations

import atexit
import marshal
import os
import sys
from importlib._bootstrap_external import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

MAX_ENTRIES = 5000
"""More than this (many versions' classes collected over time): start over with this run's."""

_ENTRY_FORMAT = 1
"""Bumped when the file's layout changes."""

_compiled: dict[str, CodeType] = {}
_used: set[str] = set()
_state = {"loaded": 0, "new": 0}
_where: list[Path] = []


def cache_file() -> Path:
    """Where this interpreter's table lives: `__pycache__` beside this module."""
    tag = sys.implementation.cache_tag or "python"
    opt = f".opt-{sys.flags.optimize}" if sys.flags.optimize else ""
    return Path(__file__).parent / "__pycache__" / f"dataclass-methods.{tag}{opt}.marshal"


def _load(path: Path) -> dict[str, CodeType]:
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    header = MAGIC_NUMBER + bytes([_ENTRY_FORMAT])
    if not data.startswith(header):
        return {}
    try:
        table = marshal.loads(data[len(header) :])
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(table, dict):
        return {}
    return {
        text: code
        for text, code in table.items()
        if isinstance(text, str) and isinstance(code, CodeType)
    }


def cached_exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    """`exec` for `dataclasses`: source text is compiled once, then taken from the table."""
    if type(source) is str:
        code = _compiled.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _compiled[source] = code
            _state["new"] += 1
        _used.add(source)
        source = code
    exec(source, globals, locals)


def save() -> None:
    """Write the table back if this run compiled something new (atomic; errors ignored)."""
    if not _state["new"] or sys.dont_write_bytecode:
        return
    table = _compiled
    if len(table) > MAX_ENTRIES:
        table = {text: code for text, code in table.items() if text in _used}
    path = _where[0] if _where else cache_file()
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(exist_ok=True)
        data = MAGIC_NUMBER + bytes([_ENTRY_FORMAT]) + marshal.dumps(table)
        # A new file of our own: never through a link or over a file someone left there.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
        return
    _state["new"] = 0


def install(path: Path | None = None) -> None:
    """Route `dataclasses`' method compilation through the table (once per process).

    `path`: the table's file (tests); by default `cache_file()`.
    """
    import dataclasses

    if getattr(dataclasses, "exec", None) is cached_exec:
        return
    _where[:] = [path or cache_file()]
    _compiled.update(_load(_where[0]))
    _state["loaded"] = len(_compiled)
    # `dataclasses` calls the builtin by its global name: a module global of that name is
    # what its `_create_fn` finds first. Nothing else in the module is changed.
    dataclasses.exec = cached_exec  # type: ignore[attr-defined]
    atexit.register(save)
