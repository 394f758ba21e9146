"""Fixtures of the context tests: the provider's API key in the environment."""

from __future__ import annotations

import pytest

from tests.context.harness import API_KEY


@pytest.fixture(autouse=True)
def _api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
