"""What some config keys change in the requests codex sends (scripted model server)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from codex_core.config import ConfigOverrides
from codex_core.exec.sandbox import linux_sandbox_problem
from codex_core.protocol import ErrorEvent, ExecCommandEndEvent, StreamErrorEvent
from codex_core.session.compact import SUMMARY_PREFIX, SUMMARY_REQUEST
from tests.context.harness import open_session, user_texts
from tests.integration.session_harness import run_turn, shutdown
from tests.support.model_server import ModelServer
from tests.support.sse import message, shell_call, turn, update_plan_call, usage
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


async def test_config_auto_compact_token_limit_compacts_a_smaller_history(
    model_server: ModelServer, tmp_path: Path
) -> None:
    plan = update_plan_call([("look", "in_progress")], call_id="p1")
    model_server.add(turn(plan, usage=usage(4000, 100)), turn(message("done")))
    await one_turn(model_server, tmp_path)
    assert len(model_server.requests) == 2  # 4100 tokens: far below the default limit
    model_server.add(
        turn(plan, usage=usage(4000, 100)), turn(message("SUMMARY")), turn(message("done"))
    )
    await one_turn(model_server, tmp_path, "model_auto_compact_token_limit=1000")
    assert len(model_server.requests) == 5
    compaction, follow_up = model_server.bodies[3:]
    assert user_texts(compaction)[-1] == SUMMARY_REQUEST
    assert user_texts(follow_up)[-2:] == ["hi", f"{SUMMARY_PREFIX}\nSUMMARY"]


async def test_config_shell_timeout_ms_ends_a_command_without_its_own_timeout(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(
        turn(
            shell_call(["bash", "-c", "sleep 10; echo late"], call_id="c1"),
            shell_call(["bash", "-c", "sleep 1; echo on time"], call_id="c2", timeout_ms=10_000),
        ),
        turn(message("done")),
    )
    events = await one_turn(model_server, tmp_path, "shell_timeout_ms=300")
    ends = {e.call_id: e for e in events if isinstance(e, ExecCommandEndEvent)}
    assert (ends["c1"].exit_code, ends["c1"].timed_out) == (124, True)
    assert ends["c1"].duration_ms < 5000
    assert (ends["c2"].exit_code, ends["c2"].timed_out) == (0, False)  # its own timeout wins
    outputs = {
        i["call_id"]: json.loads(i["output"])
        for i in model_server.bodies[-1]["input"]
        if i["type"] == "function_call_output"
    }
    assert outputs["c1"]["output"] == "command timed out after 300 ms\n"
    assert outputs["c1"]["metadata"]["exit_code"] == 124
    assert outputs["c2"]["output"] == "on time\n"


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or linux_sandbox_problem() is not None,
    reason="needs the Linux sandbox (Landlock and seccomp)",
)
async def test_config_sandbox_mode_decides_whether_a_command_may_write(
    model_server: ModelServer, tmp_path: Path
) -> None:
    for mode, writes in (("read-only", False), ("workspace-write", True)):
        work, home = tmp_path / mode, tmp_path / f"home-{mode}"
        work.mkdir()
        home.mkdir()
        (home / "config.toml").write_text(f'sandbox_mode = "{mode}"\n')
        model_server.add(
            turn(shell_call(["bash", "-c", "echo hi > out.txt"], call_id=mode)),
            turn(message("done")),
        )
        overrides = ConfigOverrides(cwd=work, approval_policy="never")  # no sandbox flag
        session = await open_session(model_server, home, work, overrides=overrides)
        events = await run_turn(session, "write a file")
        await shutdown(session)
        [end] = [e for e in events if isinstance(e, ExecCommandEndEvent)]
        assert (end.exit_code == 0, (work / "out.txt").exists()) == (writes, writes), mode
