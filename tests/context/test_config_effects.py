"""What some config keys change in the requests codex sends (scripted model server)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codex_core.protocol import ErrorEvent, StreamErrorEvent
from tests.context.harness import open_session
from tests.integration.session_harness import run_turn, shutdown
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn
from tests.support.steps import drop_after


async def one_turn(server: ModelServer, tmp_path: Path, *settings: str) -> list[object]:
    session = await open_session(server, tmp_path / "home", tmp_path, *settings)
    events = await run_turn(session, "hi")
    await shutdown(session)
    return list(events)


async def test_config_model_and_reasoning_reach_the_request(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(turn(message("one")), turn(message("two")))
    await one_turn(model_server, tmp_path)
    await one_turn(
        model_server,
        tmp_path,
        'model="gpt-5.5"',
        'model_reasoning_effort="high"',
        'model_reasoning_summary="detailed"',
    )
    default, chosen = model_server.bodies
    assert default["model"] == "gpt-5.1-codex"
    assert (chosen["model"], chosen["reasoning"]) == (
        "gpt-5.5",
        {"effort": "high", "summary": "detailed"},
    )


async def test_config_provider_env_http_headers_sent_when_the_variable_is_set(
    model_server: ModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEAM_TOKEN_FOR_TEST", "t-123")
    monkeypatch.delenv("UNSET_TOKEN_FOR_TEST", raising=False)
    model_server.add(turn(message("one")))
    await one_turn(
        model_server,
        tmp_path,
        "model_providers.mock.env_http_headers="
        '{ "X-Team" = "TEAM_TOKEN_FOR_TEST", "X-Unset" = "UNSET_TOKEN_FOR_TEST" }',
    )
    [request] = model_server.requests
    assert request.header("X-Team") == "t-123"
    assert request.header("X-Unset") is None
    assert "UNSET_TOKEN_FOR_TEST" not in os.environ


async def test_config_provider_stream_max_retries_reconnects_a_dropped_stream(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(drop_after(turn(message("cut")), 1), turn(message("whole")))
    events = await one_turn(model_server, tmp_path, "model_providers.mock.stream_max_retries=1")
    assert len(model_server.requests) == 2
    assert any(isinstance(e, StreamErrorEvent) for e in events)
    assert not any(isinstance(e, ErrorEvent) for e in events)
    model_server.add(drop_after(turn(message("cut")), 1))
    failed = await one_turn(model_server, tmp_path, "model_providers.mock.stream_max_retries=0")
    assert len(model_server.requests) == 3
    assert any(isinstance(e, ErrorEvent) for e in failed)


async def test_config_provider_name_and_key_instructions_in_the_missing_key_error(
    model_server: ModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ACME_KEY_FOR_TEST", raising=False)
    events = await one_turn(
        model_server,
        tmp_path,
        'model_providers.mock.name="Acme Cloud"',
        'model_providers.mock.env_key="ACME_KEY_FOR_TEST"',
        'model_providers.mock.env_key_instructions="create one at https://acme.example/keys"',
    )
    errors = [e.message for e in events if isinstance(e, ErrorEvent)]
    assert errors == [
        "No API key: set ACME_KEY_FOR_TEST to use Acme Cloud "
        "(create one at https://acme.example/keys)."
    ]
    assert model_server.requests == []
