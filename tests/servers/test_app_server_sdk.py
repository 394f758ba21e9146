"""The official Python SDK `openai-codex` drives our app-server through a two-turn thread."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from types import ModuleType

from codex_core.session.inputs import TURN_ABORTED_TEXT
from tests.servers.rpc_client import CODEX
from tests.support.model_server import ModelServer, hang, slow
from tests.support.sse import message, turn


def test_app_server_official_sdk_two_turns(
    sdk: ModuleType, model_server: ModelServer, codex_home: Path, workspace: Path
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


def _sdk_codex(
    sdk: ModuleType, model_server: ModelServer, codex_home: Path, workspace: Path
) -> object:
    overrides = [*model_server.config_overrides(), 'model="gpt-5.1-codex"']
    config = sdk.CodexConfig(
        codex_bin=str(CODEX),
        config_overrides=tuple(overrides),
        cwd=str(workspace),
        env={**os.environ, "CODEX_HOME": str(codex_home), "OPENAI_API_KEY": "sk-test"},
    )
    return sdk.Codex(config)


def _user_texts(body: dict[str, object]) -> list[str]:
    items = body["input"]
    assert isinstance(items, list)
    return [
        part["text"]
        for item in items
        if item.get("role") == "user"
        for part in item["content"]
        if part.get("type") == "input_text"
    ]


def test_app_server_sdk_steer_name_archive_unarchive_and_account(
    sdk: ModuleType, model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    """The Python SDK's `steer`, `set_name`, `thread_unarchive`, `login_api_key`, `account`
    and `logout` (methods our app-server answered unknown-method before)."""
    model_server.add(slow(turn(message("a long first answer")), 0.3), turn(message("steered")))
    with _sdk_codex(sdk, model_server, codex_home, workspace) as codex:  # type: ignore[attr-defined]
        thread = codex.thread_start(cwd=str(workspace))
        handle = thread.turn("first")
        assert handle.steer("also this").turn_id == handle.id
        result = handle.run()
        thread.set_name("Release checklist")
        codex.thread_archive(thread.id)
        back = codex.thread_unarchive(thread.id)
        named = back.read().thread.name
        codex.login_api_key("sk-saved")
        account = codex.account()
        codex.logout()
    assert "steered" in [getattr(item.root, "text", None) for item in result.items]
    assert len(model_server.requests) == 2
    assert _user_texts(model_server.bodies[-1])[-1] == "also this"
    assert named == "Release checklist"
    assert account.account is None and account.requires_openai_auth is False
    assert not (codex_home / "auth.json").exists()
    index = (codex_home / "session_index.jsonl").read_text().splitlines()
    assert [json.loads(line)["thread_name"] for line in index] == ["Release checklist"]
    assert list((codex_home / "sessions").rglob(f"rollout-*-{thread.id}.jsonl"))


def test_app_server_sdk_interrupted_turn_is_told_to_the_model(
    sdk: ModuleType, model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    """After `interrupt`, the next request carries a `<turn_aborted>` user message right
    before the new prompt, as Codex 0.169 records it."""
    model_server.add(hang(30), turn(message("fresh start")))
    with _sdk_codex(sdk, model_server, codex_home, workspace) as codex:  # type: ignore[attr-defined]
        thread = codex.thread_start(cwd=str(workspace))
        handle = thread.turn("a long job")
        deadline = time.monotonic() + 20
        while not model_server.requests:  # the model has the request (and hangs on it)
            assert time.monotonic() < deadline, "the model was never asked"
            time.sleep(0.02)
        handle.interrupt()
        handle.run()
        after = thread.run("start over")
    assert after.final_response == "fresh start"
    texts = _user_texts(model_server.bodies[-1])
    assert texts[-3:-1] == ["a long job", TURN_ABORTED_TEXT]
    assert texts[-1] == "start over"
    assert TURN_ABORTED_TEXT.startswith("<turn_aborted>\n")
    assert TURN_ABORTED_TEXT.endswith("\n</turn_aborted>")
