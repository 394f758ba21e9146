"""House rules that tools check: ruff over everything, strict mypy over the three packages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import in_ci

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    exe = BIN / tool
    if not exe.exists():
        pytest.skip(f"{tool} is not installed in this environment")
    return subprocess.run([str(exe), *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_lint_ruff_clean() -> None:
    done = run("ruff", "check", "codex_core", "codex_tui", "sandbox_helper", "tests")
    assert done.returncode == 0, done.stdout[-4000:]


def test_lint_mypy_strict_clean() -> None:
    # CI runs on a clean clone that is thrown away: a cache it wrote would never be read,
    # and writing it costs ~20% of the cold check's CPU
    cache = os.devnull if in_ci() else str(ROOT / ".mypy_cache")
    done = run("mypy", "--cache-dir", cache)
    assert done.returncode == 0, done.stdout[-4000:]
