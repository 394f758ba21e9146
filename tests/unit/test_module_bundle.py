"""The module bundle: the modules a run imports come from one file next time, exactly as the
path finder would find them — edited, shadowed or moved modules are imported as usual."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]

PROGRAM = textwrap.dedent(
    """
    import inspect, json, sys, traceback
    early, root, bundle = sys.argv[1:4]
    sys.path[:0] = [early, root, {repo!r}]
    from codex_core import module_bundle
    module_bundle.install(bundle)
    import demo_mod, demo_pkg.sub
    from importlib.resources import files
    try:
        demo_mod.boom()
    except RuntimeError:
        shown = traceback.format_exc().splitlines()
        where = [line.strip() for line in shown if "# the line" in line]
    print(json.dumps({{
        "served": module_bundle._counts["served"],
        "value": demo_mod.VALUE,
        "sub": demo_pkg.sub.VALUE,
        "from": [demo_mod.__file__, demo_pkg.sub.__file__],
        "cached": demo_pkg.sub.__cached__,
        "package_path": list(demo_pkg.__path__),
        "resource": files("demo_pkg").joinpath("data.txt").read_text(),
        "source": inspect.getsource(demo_mod.boom),
        "traceback": where,
        "stdlib": __import__("json").dumps([1]),
    }}))
    """
).format(repo=str(REPO))


SHARING = textwrap.dedent(
    """
    import sys
    early, root, bundle = sys.argv[1:4]
    sys.path[:0] = [early, root, {repo!r}]
    from codex_core import module_bundle
    module_bundle.install(bundle)
    import {{name}}
    print(module_bundle._counts["served"])
    """
).format(repo=str(REPO))
"""A program importing one module of its own (`name`)."""


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    early, root = tmp_path / "early", tmp_path / "root"
    early.mkdir()
    (root / "demo_pkg").mkdir(parents=True)
    (root / "demo_mod.py").write_text(
        "VALUE = 1\n\n\ndef boom():\n    raise RuntimeError('boom')  # the line shown\n"
    )
    (root / "demo_pkg" / "__init__.py").write_text("")
    (root / "demo_pkg" / "sub.py").write_text("VALUE = 'sub'\n")
    (root / "demo_pkg" / "data.txt").write_text("a resource\n")
    return {"early": early, "root": root, "bundle": tmp_path / "modules.bundle"}


def _run(tree: dict[str, Path], *flags: str) -> dict[str, object]:
    """PROGRAM in `python -I` (no working directory or PYTHON* variables: a path like the
    console script's)."""
    result: dict[str, object] = _program(tree, PROGRAM, *flags)
    return result


def _program(tree: dict[str, Path], program: str, *flags: str) -> Any:
    args = [str(tree[k]) for k in ("early", "root", "bundle")]
    done = subprocess.run(
        [sys.executable, "-I", *flags, "-c", program, *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _touch_later(path: Path, text: str) -> None:
    """Write `text` with a modification time surely after the one recorded."""
    path.write_text(text)
    later = time.time() + 2
    os.utime(path, (later, later))


def test_the_second_run_takes_its_modules_from_the_bundle_unchanged(tree: dict[str, Path]) -> None:
    first = _run(tree)
    assert tree["bundle"].exists()
    second = _run(tree)
    assert first.pop("served") == 0
    served = second.pop("served")
    assert isinstance(served, int) and served >= 3  # demo_mod, demo_pkg, demo_pkg.sub, json…
    assert second == first
    assert first["traceback"] == ["raise RuntimeError('boom')  # the line shown"]


def test_a_changed_directory_is_recorded_again_and_served_again(tree: dict[str, Path]) -> None:
    _run(tree)
    served = _run(tree)["served"]
    (tree["root"] / "unrelated.txt").write_text("a file came beside the modules\n")
    after = _run(tree)["served"]  # top-level names from root onwards: imported as usual…
    assert isinstance(after, int) and isinstance(served, int) and after < served
    assert _run(tree)["served"] == served  # …and recorded again


def test_two_programs_sharing_a_bundle_keep_each_others_modules(tree: dict[str, Path]) -> None:
    """The TUI and its app-server child share a bundle: what one wrote is kept by the other."""
    _run(tree)  # records demo_mod, demo_pkg, json, …
    lone = SHARING.format(name="lone_a")
    (tree["root"] / "lone_a.py").write_text("A = 1\n")
    (tree["root"] / "lone_b.py").write_text("B = 1\n")
    for name in ("lone_a", "lone_b", "lone_a", "lone_b"):
        _program(tree, SHARING.format(name=name))
    assert _program(tree, lone) == 1  # lone_a still served after lone_b's run wrote
    served = _run(tree)["served"]
    assert isinstance(served, int) and served >= 3


def test_an_edited_module_is_imported_as_it_is_now(tree: dict[str, Path]) -> None:
    _run(tree)
    _touch_later(
        tree["root"] / "demo_mod.py", "VALUE = 2222\n\n\ndef boom():\n    raise RuntimeError\n"
    )
    assert _run(tree)["value"] == 2222
    assert _run(tree)["value"] == 2222  # and the bundle learnt it


def test_a_module_added_earlier_on_the_path_shadows_the_bundled_one(tree: dict[str, Path]) -> None:
    _run(tree)
    (tree["early"] / "demo_mod.py").write_text(
        "VALUE = 'early'\n\n\ndef boom():\n    raise RuntimeError\n"
    )
    assert _run(tree)["value"] == "early"


def test_a_package_added_beside_a_bundled_submodule_wins_as_it_would(
    tree: dict[str, Path],
) -> None:
    _run(tree)
    (tree["root"] / "demo_pkg" / "sub").mkdir()
    (tree["root"] / "demo_pkg" / "sub" / "__init__.py").write_text("VALUE = 'package'\n")
    assert _run(tree)["sub"] == "package"


@pytest.mark.parametrize("damage", [b"", b"garbage", b"CDXB" + b"\x00" * 64])
def test_a_damaged_bundle_only_means_importing_as_usual(
    tree: dict[str, Path], damage: bytes
) -> None:
    plain = _run(tree)
    tree["bundle"].write_bytes(damage)
    again = _run(tree)
    assert again.pop("served") == 0 and plain.pop("served") == 0
    assert again == plain
    assert tree["bundle"].read_bytes() != damage  # written anew


def test_a_truncated_bundle_is_not_used(tree: dict[str, Path]) -> None:
    _run(tree)
    data = tree["bundle"].read_bytes()
    tree["bundle"].write_bytes(data[: len(data) - 100])
    assert _run(tree)["served"] == 0


def test_damaged_code_in_a_bundle_is_compiled_from_source_instead(tree: dict[str, Path]) -> None:
    plain = _run(tree)
    data = bytearray(tree["bundle"].read_bytes())
    body = 9 + 8 + int.from_bytes(data[9:17], "little")  # header, index size, index
    data[body:] = b"\xff" * (len(data) - body)
    tree["bundle"].write_bytes(bytes(data))
    again = _run(tree)
    assert again.pop("served") == 0 and plain.pop("served") == 0
    assert again == plain


def test_nothing_is_written_without_bytecode_writing(tree: dict[str, Path]) -> None:
    _run(tree, "-B")  # as PYTHONDONTWRITEBYTECODE=1
    assert not tree["bundle"].exists()


def test_saving_never_writes_through_a_planted_link(tmp_path: Path) -> None:
    """The temporary file is created new (O_EXCL | O_NOFOLLOW): a link left where it goes
    does not redirect the write."""
    from codex_core import module_bundle

    bundle = tmp_path / "modules.bundle"
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me\n")
    Path(f"{bundle}.{os.getpid()}.tmp").symlink_to(target)
    module_bundle._write(str(bundle), [b"data"])
    assert target.read_text() == "keep me\n"
    assert not bundle.exists()


def test_the_console_script_keeps_its_bundle_beside_the_bytecode() -> None:
    from codex_core.module_bundle import bundle_file

    path = Path(bundle_file())
    assert path.parent == REPO / "codex_core" / "__pycache__"
    assert path.name.startswith(f"modules.{sys.implementation.cache_tag}.")
