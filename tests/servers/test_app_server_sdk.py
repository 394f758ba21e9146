"""The official Python SDK `openai-codex` drives our app-server through a two-turn thread."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

from tests.servers.rpc_client import CODEX
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

SDK_VERSION = "0.163.0"


def _load_sdk() -> ModuleType:
    """The official SDK: installed, or fetched without its bundled CLI into a cache dir.

    Its `openai-codex-cli-bin` dependency is a ~360 MB Rust binary we never run (the test
    points the SDK at our console script), so it is installed with `--no-deps`; pydantic
    and packaging, its other dependencies, come with ours.
    """
    try:
        return importlib.import_module("openai_codex")
    except ImportError:
        pass
    target = Path(tempfile.gettempdir()) / f"codex-test-openai-codex-{SDK_VERSION}"
    if not (target / "openai_codex").is_dir():
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-deps",
                "--target",
                str(target),
                f"openai-codex=={SDK_VERSION}",
            ],
            capture_output=True,
            text=True,
            timeout=180,
        )
        if done.returncode != 0:
            pytest.skip(
                f"the official SDK openai-codex could not be installed: {done.stderr[-300:]}"
            )
    sys.path.insert(0, str(target))
    return importlib.import_module("openai_codex")


sdk = _load_sdk()


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
