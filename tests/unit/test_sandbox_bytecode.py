"""The front process caches the stage-2 helper's bytecode (the helper itself cannot)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import sandbox_helper

HELPER_DIR = Path(sandbox_helper.__file__).parent


def _copy_helper(tmp_path: Path) -> Path:
    package = tmp_path / "sandbox_helper"
    shutil.copytree(HELPER_DIR, package, ignore=shutil.ignore_patterns("__pycache__"))
    return package


def _ensure(root: Path, **env: str) -> None:
    code = "from sandbox_helper.launch import ensure_helper_bytecode as f; f(); f()"
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(
        [sys.executable, "-c", code], cwd=root, env={**clean, **env}, check=True, timeout=30
    )


def test_sandbox_bytecode_written_for_every_helper_module(tmp_path: Path) -> None:
    package = _copy_helper(tmp_path)
    _ensure(tmp_path)
    tag = sys.implementation.cache_tag
    modules = sorted(p.stem for p in package.glob("*.py"))
    cached = sorted(p.name.split(".")[0] for p in (package / "__pycache__").glob(f"*.{tag}.pyc"))
    assert cached == modules


def test_sandbox_bytecode_respects_pythondontwritebytecode(tmp_path: Path) -> None:
    package = _copy_helper(tmp_path)
    _ensure(tmp_path, PYTHONDONTWRITEBYTECODE="1")
    assert not (package / "__pycache__" / f"linux.{sys.implementation.cache_tag}.pyc").exists()
