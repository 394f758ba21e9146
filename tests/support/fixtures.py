"""Pytest fixtures for the scripted model server and the test MCP server over HTTP; import
them into tests/conftest.py."""

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


@pytest.fixture(scope="session")
def mcp_http_server() -> Iterator[str]:
    """The test MCP server (tests/mcp/server.py, with its `report` tool) over streamable HTTP,
    started once per test process: it keeps nothing between calls and gives each client a
    session of its own, so the tests that need one share it instead of each paying its start."""
    from tests.mcp.conftest import serve_http

    yield from serve_http("--report")
