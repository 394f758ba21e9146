"""The compile cache: the same classes and patterns as without it, compiled once across runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

PROGRAM = textwrap.dedent(
    """
    import dataclasses, inspect, json, sys
    if sys.argv[1] == "cached":
        from codex_core import compile_cache
        compile_cache.install(__import__("pathlib").Path(sys.argv[2]))
    from tests.unit.compile_cache_classes import describe, describe_patterns
    out = describe()
    out["patterns"] = describe_patterns()
    if sys.argv[1] == "cached":
        out["state"] = dict(compile_cache._state)
        out["state"]["forward_ref_kept"] = "Optional[Schema]" in compile_cache._expressions
    print(json.dumps(out))
    """
)


def _run(mode: str, table: Path, **env: str) -> dict[str, object]:
    environ = {**os.environ, **env}
    if "PYTHONDONTWRITEBYTECODE" not in env:
        environ.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, mode, str(table)],
        cwd=REPO,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_classes_behave_the_same_and_the_second_run_compiles_nothing(tmp_path: Path) -> None:
    table = tmp_path / "methods.marshal"
    plain = _run("plain", table)
    first = _run("cached", table)
    assert table.exists()
    second = _run("cached", table)
    state_first, state_second = first.pop("state"), second.pop("state")
    assert first == plain and second == plain
    assert state_first["loaded"] == 0 and state_first["new"] > 0  # type: ignore[index]
    assert state_second["loaded"] >= state_first["new"]  # type: ignore[index]
    assert state_second["new"] == 0  # type: ignore[index]
    assert state_second["forward_ref_kept"]  # type: ignore[index]  # typing's text, kept
    from tests.unit.compile_cache_classes import PATTERNS

    assert state_first["pattern_hits"] == 0  # type: ignore[index]
    assert state_second["pattern_hits"] >= len(PATTERNS)  # type: ignore[index]


@pytest.mark.parametrize("damage", [b"", b"garbage", b"\x00" * 64])
def test_a_damaged_table_only_means_compiling_again(tmp_path: Path, damage: bytes) -> None:
    table = tmp_path / "methods.marshal"
    table.write_bytes(damage)
    plain = _run("plain", table)
    cached = _run("cached", table)
    state = cached.pop("state")
    assert cached == plain
    assert state["loaded"] == 0 and state["new"] > 0  # type: ignore[index]
    assert table.read_bytes() != damage  # rewritten whole


def test_nothing_is_written_without_bytecode_writing(tmp_path: Path) -> None:
    table = tmp_path / "methods.marshal"
    _run("cached", table, PYTHONDONTWRITEBYTECODE="1")
    assert not table.exists()


def test_the_console_script_keeps_its_table_beside_the_bytecode() -> None:
    from codex_core.compile_cache import cache_file

    path = cache_file()
    assert path.parent == REPO / "codex_core" / "__pycache__"
    assert sys.implementation.cache_tag in path.name
    # exec's table is its own: loading unmarshals a whole table, the TUI's is not needed
    assert cache_file("exec") != path and cache_file("exec").parent == path.parent


def test_saving_never_writes_through_a_planted_link(tmp_path: Path) -> None:
    """The temporary file is created new (O_EXCL | O_NOFOLLOW): a link left where it goes
    does not redirect the write."""
    from codex_core import compile_cache

    table = tmp_path / "methods.marshal"
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me\n")
    link = table.with_name(f"{table.name}.{os.getpid()}.tmp")
    link.symlink_to(target)
    saved = (list(compile_cache._where), dict(compile_cache._state))
    try:
        compile_cache._where[:] = [table]
        compile_cache._state["new"] = 1
        compile_cache.save()
    finally:
        compile_cache._where[:], state = saved
        compile_cache._state.update(state)
    assert target.read_text() == "keep me\n"
    assert not table.exists()
