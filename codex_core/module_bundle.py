"""Serve the modules a command loads from one file beside the bytecode.

Before its first model request `codex exec` imports ~440 modules from source files (the
standard library's, pydantic's, httpx's and ours), and for each the import system searches
the path, stats the source, opens, reads and checks its `.pyc`: about a seventh of the
process's CPU (callgrind and py-spy; issue 29). This module keeps the compiled code of the
modules a run loaded in one file, `modules.<tag>.bundle` in `__pycache__` beside it, and a
finder placed just before the standard path finder serves them from there: a lookup, one
`stat` of the source, one `pread` of the code from the file kept open (not mapped: a mapping's
pages read would stay in the process's resident memory).

It serves exactly what the path finder would: a module is taken from the bundle only if
- the module search path is the one the bundle was recorded with, and none of its directories
  changed since (a new module earlier on the path would win a normal import);
- the directory the name was resolved in is unchanged (no file came or went beside it), and
  for a submodule the package's search path is that single directory;
- its source file has the size and modification time (ns) its code was compiled from (the
  code comes from the `.pyc` the normal import wrote, checked against the source).
Anything else (and any module not in the bundle) goes to the path finder as before. The
modules it serves are ordinary source modules: `__file__`, `__cached__`, `__spec__`, the
loader's `get_source`, `get_data` and resource reader are those of `SourceFileLoader`.

At exit, when the run imported recordable modules the bundle lacked, the bundle is written
again (atomically, a new file opened with O_EXCL|O_NOFOLLOW), never under
PYTHONDONTWRITEBYTECODE; a damaged, foreign or stale file only means importing as usual. The
file sits with the package's bytecode, inside what the sandbox keeps read-only, and is
trusted as much as that bytecode is.

Standard library only, and light (the frozen import machinery, no `pathlib`): the console
script installs it before anything else loads.
"""

from __future__ import annotations

import _imp
import marshal
import os
import sys
from _frozen_importlib import ModuleSpec
from _frozen_importlib_external import (
    MAGIC_NUMBER,
    PathFinder,
    SourceFileLoader,
    cache_from_source,
)
from types import CodeType  # (loaded already: codex_core's __init__ imports `types`)

from codex_core.pycache_files import tagged, write_new

TYPE_CHECKING = False  # not `typing`'s: importing it (re, enum, collections, ...) comes later

if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

_FORMAT = 1
"""Bumped when the file's layout changes."""
MAX_MODULES = 4000
"""More than this (many commands' and versions' modules over time): keep this run's only."""
MAX_BUNDLES = 8
"""No new bundle (a new module search path) once this many lie beside each other."""

_Entry = tuple[str, str, int, int, bool, str, int, int]
"""origin, its `.pyc` path, source mtime (ns), source size, is a package, the directory the
name was resolved in, offset and length of the code in the file."""

_state: dict[str, Any] = {
    "index": {},
    "dirs": {},
    "fd": -1,
    "path": [],
    "file": None,
    "order": None,
    "changed": 0,
}
_counts = {"served": 0}
_dir_ok: dict[str, bool] = {}


def bundle_file() -> str:
    """Where the bundle for this interpreter and module search path lives: `__pycache__`
    beside this module (the console script and, say, `python -c` find modules on different
    paths: each has its own)."""
    from zlib import crc32

    key = crc32("\0".join(sys.path).encode("utf-8", "surrogateescape"))
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "__pycache__", f"{tagged('modules')}.{key:08x}.bundle")


def _header() -> bytes:
    return b"CDXB" + MAGIC_NUMBER + bytes([_FORMAT])


def _mtime(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


class BundleLoader(SourceFileLoader):
    """A source module's loader whose code comes from the bundle."""

    def __init__(self, fullname: str, path: str, start: int, length: int) -> None:
        super().__init__(fullname, path)
        self._span = (start, length)

    def get_code(self, fullname: str) -> CodeType:
        start, length = self._span
        try:
            code = marshal.loads(os.pread(_state["fd"], length, start))
        except (OSError, EOFError, ValueError, TypeError):
            code = None
        if not isinstance(code, CodeType):  # unreadable: as the path finder's loader would
            usual: CodeType = super().get_code(fullname)  # type: ignore[assignment]
            return usual
        _imp._fix_co_filename(code, self.path)  # type: ignore[attr-defined]  # as for a .pyc
        _counts["served"] += 1
        return code


class BundleFinder:
    """Finds modules in the bundle; placed just before the standard path finder."""

    @classmethod
    def find_spec(
        cls, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        entry: _Entry | None = _state["index"].get(fullname)
        if entry is None or target is not None:
            return None
        if path is not None and (len(path) != 1 or path[0] != entry[5]):
            return None
        if not _usable(fullname, entry, _state["dirs"], _state["changed"], _dir_ok):
            return None
        origin, cached, _, _, package, _, start, length = entry
        loader = BundleLoader(fullname, origin, start, length)
        spec = ModuleSpec(fullname, loader, origin=origin, is_package=package)
        spec.has_location = True
        spec.cached = cached
        if package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        return spec

    @classmethod
    def invalidate_caches(cls) -> None:
        _dir_ok.clear()


def _usable(
    name: str, entry: _Entry, dirs: dict[str, int | None], changed: int, seen: dict[str, bool]
) -> bool:
    """Whether the path finder would find `entry` for `name` now: its directory unchanged (no
    file came or went beside it), for a top-level name no directory before it on sys.path
    changed, and its source as its code was compiled from. `seen`: directories checked."""
    origin, _, mtime, size, _, where, _, _ = entry
    if "." not in name and _order().get(where, changed) >= changed:
        return False
    ok = seen.get(where)
    if ok is None:
        ok = seen[where] = _mtime(where) == dirs.get(where)
    if not ok:
        return False
    try:
        st = os.stat(origin)
    except OSError:
        return False
    return st.st_mtime_ns == mtime and st.st_size == size


def _order() -> dict[str, int]:
    order: dict[str, int] | None = _state.get("order")
    if order is None:
        order = _state["order"] = {e: i for i, e in reversed(list(enumerate(sys.path)))}
    return order


def _first_changed(dirs: dict[str, int | None]) -> int:
    """Index of the first directory on sys.path that changed since `dirs` was recorded: a
    module there may now shadow one of the same name found further on."""
    for i, entry in enumerate(sys.path):
        if _mtime(entry) != dirs.get(entry):
            return i
    return len(sys.path)


def _valid(entry: Any) -> bool:
    return (
        type(entry) is tuple
        and len(entry) == 8
        and all(type(v) is str for v in entry[:2])
        and all(type(v) is int for v in (*entry[2:4], *entry[6:]))
        and type(entry[4]) is bool
        and type(entry[5]) is str
    )


def _read(path: str) -> tuple[dict[str, _Entry], dict[str, int | None], int] | None:
    """The bundle at `path` recorded for this module search path: its index (offsets into the
    file), the directories' modification times and the file, open; None if missing, foreign
    or damaged."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    found = None
    try:
        found = _index(fd)
    except (OSError, EOFError, ValueError, TypeError):
        pass
    if found is None:
        os.close(fd)
        return None
    return (*found, fd)


def _index(fd: int) -> tuple[dict[str, _Entry], dict[str, int | None]] | None:
    header = _header()
    head = os.pread(fd, len(header) + 8, 0)
    if head[: len(header)] != header or len(head) != len(header) + 8:
        return None
    size = int.from_bytes(head[len(header) :], "little")
    meta = os.pread(fd, size, len(head))
    if len(meta) != size:
        return None
    recorded_path, dirs, index = marshal.loads(meta)
    if recorded_path != sys.path or type(dirs) is not dict or type(index) is not dict:
        return None
    body = len(head) + size
    room = os.fstat(fd).st_size - body
    if not all(_valid(e) and e[6] >= 0 and e[6] + e[7] <= room for e in index.values()):
        return None  # damaged or truncated
    return {name: (*e[:6], e[6] + body, e[7]) for name, e in index.items()}, dirs


def _recordable(module: ModuleType) -> tuple[str, str] | None:
    """(origin, the directory its name was resolved in) for a source module the path finder
    loaded, else None."""
    spec = getattr(module, "__spec__", None)
    loader = getattr(spec, "loader", None)
    if spec is None or type(loader) not in (SourceFileLoader, BundleLoader):
        return None
    origin = spec.origin
    if not isinstance(origin, str) or not origin.endswith(".py"):
        return None
    where = os.path.dirname(origin)
    if spec.submodule_search_locations is not None:
        where = os.path.dirname(where)
    package = spec.name.rpartition(".")[0]  # (a package's spec.parent is itself)
    if package:
        parent = sys.modules.get(package)
        if list(getattr(parent, "__path__", None) or ()) != [where]:
            return None
    elif where not in sys.path:
        return None
    return origin, where


def _code_of(origin: str) -> tuple[str, bytes, int, int] | None:
    """The `.pyc` path and code for `origin`, if it was compiled from the source as it is."""
    try:
        cached = cache_from_source(origin)
        st = os.stat(origin)
        with open(cached, "rb") as pyc:
            data = pyc.read()
    except (OSError, NotImplementedError):
        return None
    if data[:4] != MAGIC_NUMBER or int.from_bytes(data[4:8], "little") != 0:
        return None  # not a timestamp-checked .pyc
    if int.from_bytes(data[8:12], "little") != int(st.st_mtime) & 0xFFFFFFFF:
        return None
    if int.from_bytes(data[12:16], "little") != st.st_size & 0xFFFFFFFF:
        return None
    return cached, data[16:], st.st_mtime_ns, st.st_size


def save() -> None:
    """Write the bundle again if needed (at exit: a failure only means no bundle)."""
    try:
        _save()
    except (OSError, EOFError, ValueError, TypeError):
        pass


def _save() -> None:
    """Write the bundle again if this run imported source modules it could not serve.

    What another process wrote meanwhile (the TUI and its app-server child share a bundle) is
    kept: the file on disk is read again and merged, its entries the path finder would no
    longer find as recorded left out.
    """
    if sys.dont_write_bytecode or _state["path"] != sys.path:
        return  # not to be written, or the run changed the path its modules were found on
    index: dict[str, _Entry] = _state["index"]
    fresh: dict[str, tuple[str, str]] = {}
    for name, module in list(sys.modules.items()):
        if type(getattr(module, "__loader__", None)) is not SourceFileLoader:
            continue  # served by the bundle, built in, frozen, an extension…: nothing to add
        found = _recordable(module)
        if found is None:
            continue
        entry = index.get(name)
        if entry is None or not _usable(name, entry, _state["dirs"], _state["changed"], {}):
            fresh[name] = found
    if not fresh:
        return
    path = _state["file"] or bundle_file()
    index, dirs, fd = _read(path) or ({}, {}, -1)
    changed, seen = _first_changed(dirs), dict[str, bool]()
    kept = {
        name: entry
        for name, entry in index.items()
        if name not in fresh and _usable(name, entry, dirs, changed, seen)
    }
    if len(kept) + len(fresh) > MAX_MODULES:  # start over with what this run loaded
        kept = {name: entry for name, entry in kept.items() if name in sys.modules}
    chunks: list[bytes] = []
    out: dict[str, _Entry] = {}
    offset = 0
    for name, (origin, cached, mtime, size, package, where, start, length) in kept.items():
        out[name] = (origin, cached, mtime, size, package, where, offset, length)
        chunks.append(os.pread(fd, length, start))
        offset += length
    for name, (origin, where) in fresh.items():
        code = _code_of(origin)
        if code is None:
            continue
        cached, blob, mtime, size = code
        package = sys.modules[name].__spec__.submodule_search_locations is not None  # type: ignore[union-attr]
        out[name] = (origin, cached, mtime, size, package, where, offset, len(blob))
        chunks.append(blob)
        offset += len(blob)
    if fd >= 0:
        os.close(fd)
    now = {where: _mtime(where) for where in {e[5] for e in out.values()} | set(sys.path)}
    meta = marshal.dumps((list(sys.path), now, out))
    head: list[bytes] = [_header(), len(meta).to_bytes(8, "little"), meta]
    _write(path, head + chunks)


def _write(path: str, parts: list[bytes]) -> None:
    folder = os.path.dirname(path)
    try:
        names = os.listdir(folder)
    except OSError:
        names = []
    others = [n for n in names if n.startswith("modules.") and n.endswith(".bundle")]
    if not os.path.exists(path) and len(others) >= MAX_BUNDLES:
        return
    write_new(path, parts)


def install(path: str | None = None) -> None:
    """Serve modules from the bundle from now on (once per process) and write it at exit.

    `path`: the bundle's file (tests); by default `bundle_file()`.
    """
    if BundleFinder in sys.meta_path or not all(os.path.isabs(entry) for entry in sys.path):
        return  # installed, or a path with the working directory on it (`python -c`)
    import atexit

    _state["file"] = path or bundle_file()
    _state["path"] = list(sys.path)
    found = _read(_state["file"])
    if found is not None:
        index, dirs, fd = found
        _state.update(index=index, dirs=dirs, fd=fd, changed=_first_changed(dirs))
    at = sys.meta_path.index(PathFinder) if PathFinder in sys.meta_path else len(sys.meta_path)
    sys.meta_path.insert(at, BundleFinder)
    atexit.register(save)
