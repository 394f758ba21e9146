"""Pytest fixtures for the scripted model server; import them into tests/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.model_server import ModelServer


@pytest.fixture
def model_server() -> Iterator[ModelServer]:
    """A running scripted model server; at teardown every request must pair calls and outputs."""
    with ModelServer() as server:
        yield server
        server.check_pairing()
