"""Fixtures for the protocol servers: a workspace, the scripted model server, schema checks."""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import require_conformance
from tests.servers.rpc_client import AppServerClient, SchemaChecker
from tests.servers.ws_client import ServerProcess
from tests.support.model_server import ModelServer

MODEL_FLAGS = ["-c", 'model="gpt-5.1-codex"']
SDK_VERSION = "0.163.0"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """The directory threads run in."""
    path = tmp_path / "ws"
    path.mkdir()
    return path


@pytest.fixture
def codex_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """CODEX_HOME for the server processes (also in the environment, as the root fixture
    this one replaces sets it: a codex started without an explicit CODEX_HOME must not
    reach the real ~/.codex), and a HOME of their own as the root fixture gives: a session's
    shell snapshot runs a login shell, which must not run the real user's profile (on this
    machine it runs `pyenv rehash`, whose lock, left behind when a test's processes are
    killed, made every later login shell wait 60 s)."""
    path = tmp_path / "home"
    path.mkdir()
    user_home = tmp_path / "user-home"
    user_home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(path))
    monkeypatch.setenv("HOME", str(user_home))
    return path


@pytest.fixture
def model_server() -> Iterator[ModelServer]:
    """The scripted model server."""
    with ModelServer() as server:
        yield server


@pytest.fixture
def checker() -> SchemaChecker:
    """Schema checks against the Codex 0.169 bundle (fails in CI without it, skips elsewhere)."""
    return SchemaChecker(require_conformance("app_server"))


AppServerFactory = Callable[..., AppServerClient]


@pytest.fixture
def app_server(
    codex_home: Path, workspace: Path, model_server: ModelServer, checker: SchemaChecker
) -> Iterator[AppServerFactory]:
    """Start `codex --config … app-server --listen stdio://` processes; all are closed after."""
    started: list[AppServerClient] = []

    def start(**kwargs: object) -> AppServerClient:
        flags = [
            arg.replace("-c", "--config") if arg == "-c" else arg
            for arg in [*model_server.cli_flags(), *MODEL_FLAGS]
        ]
        client = AppServerClient(codex_home, workspace, flags, checker, **kwargs)  # type: ignore[arg-type]
        started.append(client)
        return client

    yield start
    for client in started:
        if client.proc.poll() is None:
            client.close()


Start = Callable[..., ServerProcess]


@pytest.fixture
def start_server(codex_home: Path, workspace: Path, model_server: ModelServer) -> Iterator[Start]:
    """Start listening servers against the scripted model; all are killed after."""
    started: list[ServerProcess] = []
    flags = [
        "--config" if arg == "-c" else arg for arg in [*model_server.cli_flags(), *MODEL_FLAGS]
    ]

    def start(listen: str, *extra: str, wait: bool = True) -> ServerProcess:
        server = ServerProcess(codex_home, workspace, flags, listen, list(extra), wait=wait)
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()


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


@pytest.fixture(scope="session")
def sdk() -> ModuleType:
    """The official Python SDK `openai-codex`, loaded once per test process when a test asks.

    Not at import: its generated pydantic models take ~2 s to build, which every xdist worker
    paid while collecting, though only the few SDK tests use them.
    """
    return _load_sdk()
