"""The shared apply_patch conformance scenarios, run through the real `apply_patch` console script."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CONFORMANCE_ROOT, NO_WARM_UP_VAR, in_ci, require_conformance

SCENARIOS = CONFORMANCE_ROOT / "apply_patch"
MISSING = "data-missing"


def _scenario_names() -> list[str]:
    """Every scenario, or one placeholder that fails in CI (skips elsewhere) without data."""
    if not SCENARIOS.is_dir():
        return [MISSING]
    return sorted(p.name for p in SCENARIOS.iterdir() if (p / "patch.txt").is_file()) or [MISSING]


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every directory (None) and file (its bytes) under `root`, keyed by relative path."""
    if not root.exists():
        return {}
    tree: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        key = path.relative_to(root).as_posix()
        tree[key] = None if path.is_dir() else path.read_bytes()
    return tree


def _apply_patch_bin(tmp_path: Path) -> Path:
    """A symlink named `apply_patch` to this virtualenv's `codex` console script."""
    script = Path(sys.executable).parent / "codex"
    assert script.exists(), f"the codex console script is not installed at {script}"
    folder = tmp_path / "bin"
    folder.mkdir()
    link = folder / "apply_patch"
    link.symlink_to(script)
    return link


@pytest.mark.conformance
@pytest.mark.parametrize("name", _scenario_names())
def test_apply_patch_conformance_scenario(name: str, tmp_path: Path) -> None:
    scenario = require_conformance("apply_patch") / name
    if name == MISSING or not (scenario / "patch.txt").is_file():
        message = f"no apply_patch scenarios (folders with patch.txt) in {SCENARIOS}"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    apply_patch_bin = _apply_patch_bin(tmp_path)
    work = tmp_path / "work"
    if (scenario / "input").is_dir():
        shutil.copytree(scenario / "input", work)
    else:
        work.mkdir()
    patch = (scenario / "patch.txt").read_text(encoding="utf-8")

    subprocess.run(
        [str(apply_patch_bin), patch], cwd=work, capture_output=True, timeout=30, check=False
    )

    assert _tree(work) == _tree(scenario / "expected")


def _run_without_data(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTEST_XDIST_WORKER")}
    env["CODEX_CONFORMANCE_DIR"] = str(tmp_path / "nowhere")
    env[NO_WARM_UP_VAR] = "1"  # this run spawns no codex
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", "-rs", __file__]
        + ["-k", "scenario"]
        # plugins this file does not use (hypothesis alone costs ~1.5 s of start-up)
        + ["-p", "no:hypothesispytest", "-p", "no:syrupy", "-p", "no:textual-snapshot"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_apply_patch_conformance_missing_data_fails_under_ci(tmp_path: Path) -> None:
    done = _run_without_data(tmp_path, "true")
    assert done.returncode == 1, done.stdout
    assert "CI must run the conformance cases, not skip them" in done.stdout
    assert "conformance: 1 cases ran (0 passed, 1 failed), 0 skipped" in done.stdout


def test_apply_patch_conformance_missing_data_skips_with_the_reason_elsewhere(
    tmp_path: Path,
) -> None:
    done = _run_without_data(tmp_path, None)
    assert done.returncode == 0, done.stdout
    assert f"conformance data not found at {tmp_path / 'nowhere' / 'apply_patch'}" in done.stdout
    assert "conformance: 0 cases ran (0 passed, 0 failed), 1 skipped" in done.stdout
