"""House rules that tools check: ruff over everything, strict mypy over the three packages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
    done = run("mypy", "--cache-dir", str(ROOT / ".mypy_cache"))
    assert done.returncode == 0, done.stdout[-4000:]
