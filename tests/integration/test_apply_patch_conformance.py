"""The shared apply_patch conformance scenarios, run through the real `apply_patch` console script."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCENARIOS = Path(__file__).resolve().parents[2] / ".." / "shared" / "conformance" / "apply_patch"


def _scenario_dirs() -> list[Path]:
    if not SCENARIOS.is_dir():
        return []
    return sorted(p for p in SCENARIOS.iterdir() if (p / "patch.txt").is_file())


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every directory (None) and file (its bytes) under `root`, keyed by relative path."""
    if not root.exists():
        return {}
    tree: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        key = path.relative_to(root).as_posix()
        tree[key] = None if path.is_dir() else path.read_bytes()
    return tree


@pytest.fixture(scope="module")
def apply_patch_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A symlink named `apply_patch` to this virtualenv's `codex` console script."""
    script = Path(sys.executable).parent / "codex"
    if not script.exists():
        pytest.skip(f"the codex console script is not installed at {script}")
    link = tmp_path_factory.mktemp("bin") / "apply_patch"
    link.symlink_to(script)
    return link


@pytest.mark.skipif(not SCENARIOS.is_dir(), reason=f"conformance data not found at {SCENARIOS}")
@pytest.mark.parametrize("scenario", _scenario_dirs(), ids=lambda p: p.name)
def test_apply_patch_conformance_scenario(
    scenario: Path, apply_patch_bin: Path, tmp_path: Path
) -> None:
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
