"""Shared fixtures: every test gets a temporary CODEX_HOME and never sees the real ~/.codex."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def codex_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """A private CODEX_HOME (and HOME) for each test; API keys from the real environment removed."""
    home = tmp_path_factory.mktemp("codex_home")
    fake_user_home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.setenv("HOME", str(fake_user_home))
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_OSS_BASE_URL", "CODEX_OSS_PORT"):
        monkeypatch.delenv(var, raising=False)
    yield home


@pytest.fixture
def codex_bin() -> Path:
    """The installed `codex` console script of this virtualenv."""
    import sys

    path = Path(sys.executable).parent / "codex"
    if not path.exists():
        pytest.skip("the codex console script is not installed in this environment")
    return path


from tests.support.fixtures import model_server  # noqa: E402,F401  (shared fixture)
