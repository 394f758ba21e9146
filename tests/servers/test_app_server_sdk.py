"""The official Python SDK `openai-codex` drives our app-server through a two-turn thread."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.servers.rpc_client import CODEX
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

sdk = pytest.importorskip(
    "openai_codex",
    reason="the official SDK `openai-codex` is not installed (pip install openai-codex)",
)


def test_app_server_official_sdk_two_turns(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    model_server.add(turn(message("first reply")), turn(message("second reply")))
    overrides = [*model_server.config_overrides(), 'model="gpt-5.1-codex"']
    config = sdk.CodexConfig(
        codex_bin=str(CODEX),
        config_overrides=tuple(overrides),
        cwd=str(workspace),
        env={**os.environ, "CODEX_HOME": str(codex_home), "OPENAI_API_KEY": "sk-test"},
    )
    with sdk.Codex(config) as codex:
        thread = codex.thread_start(cwd=str(workspace))
        first = thread.run("hello")
        second = thread.run("again")
    assert first.final_response == "first reply"
    assert second.final_response == "second reply"
    assert "first reply" in str(model_server.requests[1].body["input"])
