"""The session in a child process (`session_pipe`) driven through `ProcessCore`, against the
scripted model server: events arrive in order with deltas merged, ops are acknowledged, and
a failure at start or a dead child is one sentence, never a hang."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codex_core.config import Config, ConfigOverrides, load_config
from codex_core.protocol import (
    AgentMessageDeltaEvent,
    AgentMessageEvent,
    AgentReasoningDeltaEvent,
    Event,
    EventMsg,
    ExecCommandOutputDeltaEvent,
    ShutdownOp,
    TaskStartedEvent,
    TextInput,
    UserInputOp,
)
from codex_core.protocol.deltas import merge_deltas
from codex_tui.app.core_process import ProcessCore, SessionProcessError, start_in_process
from tests.integration.session_harness import provider_overrides
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn, usage

WAIT = 30.0


def _config(server: ModelServer, codex_home: Path, cwd: Path) -> Config:
    return load_config(
        ConfigOverrides(cwd=cwd, approval_policy="never", sandbox_mode="read-only"),
        provider_overrides(server),
        codex_home=codex_home,
    )


async def _until(core: ProcessCore, kind: str) -> list[EventMsg]:
    seen: list[EventMsg] = []
    while not seen or seen[-1].type != kind:
        seen.append((await asyncio.wait_for(core.next_event(), WAIT)).msg)
    return seen


def test_session_process_streams_merged_deltas_and_shuts_down(
    model_server: ModelServer, codex_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    words = [f"w{i} " for i in range(3000)]
    model_server.add(turn(message("".join(words), chunks=words), usage=usage(input=5, output=5)))

    async def run() -> tuple[list[EventMsg], list[EventMsg], int | None]:
        core = await start_in_process(
            _config(model_server, codex_home, tmp_path), None, log_name="t.log"
        )
        first = await _until(core, "session_configured")
        sid = await core.submit(UserInputOp(items=[TextInput(text="go")]))
        assert sid != ""
        turn_events = await _until(core, "task_complete")
        await core.submit(ShutdownOp())
        await _until(core, "shutdown_complete")
        return (
            first,
            turn_events,
            await asyncio.wait_for(asyncio.to_thread(core.process.wait), WAIT),
        )

    first, events, code = asyncio.run(run())
    assert [e.type for e in first] == ["session_configured"]
    deltas = [e for e in events if isinstance(e, AgentMessageDeltaEvent)]
    assert "".join(d.delta for d in deltas) == "".join(words)
    assert 0 < len(deltas) < len(words) // 10  # gathered in the child, not one line per delta
    assert isinstance(events[0], TaskStartedEvent)
    final = [e for e in events if isinstance(e, AgentMessageEvent)]
    assert final and final[0].message == "".join(words)
    assert code == 0


def test_session_process_that_cannot_start_says_why_in_one_line(
    model_server: ModelServer, codex_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    missing = tmp_path / "rollout-gone.jsonl"
    config = _config(model_server, codex_home, tmp_path)
    with pytest.raises(SessionProcessError) as caught:
        asyncio.run(asyncio.wait_for(start_in_process(config, missing, log_name="t.log"), WAIT))
    assert str(caught.value) == f"[Errno 2] No such file or directory: '{missing}'"


def test_session_process_killed_fails_waiting_calls_without_a_hang(
    model_server: ModelServer, codex_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")

    async def run() -> tuple[str, str]:
        core = await start_in_process(
            _config(model_server, codex_home, tmp_path), None, log_name="t.log"
        )
        await _until(core, "session_configured")
        waiting = asyncio.ensure_future(core.next_event())
        os.kill(core.process.pid, signal.SIGKILL)
        with pytest.raises(SessionProcessError) as caught:
            await asyncio.wait_for(waiting, WAIT)
        sid = await asyncio.wait_for(core.submit(ShutdownOp()), WAIT)
        return str(caught.value), sid

    reason, sid = asyncio.run(run())
    assert reason.startswith("the session process was killed (SIGKILL); see ")
    assert reason.endswith("t.log")
    assert sid == ""


_DELTA = st.one_of(
    st.builds(AgentMessageDeltaEvent, delta=st.text(max_size=3)),
    st.builds(AgentReasoningDeltaEvent, delta=st.text(max_size=3)),
    st.builds(
        ExecCommandOutputDeltaEvent,
        call_id=st.sampled_from(["a", "b"]),
        stream=st.sampled_from(["stdout", "stderr"]),
        chunk=st.text(max_size=3),
    ),
    st.builds(TaskStartedEvent),
)


def _kind(msg: EventMsg) -> tuple[str, str]:
    """What a run shares: the kind of delta, and for command output the command."""
    if isinstance(msg, ExecCommandOutputDeltaEvent):
        return (msg.type, msg.call_id)
    return (msg.type, "")


def _text(msg: EventMsg) -> str:
    if isinstance(msg, ExecCommandOutputDeltaEvent):
        return msg.chunk
    return getattr(msg, "delta", "")


@given(st.lists(_DELTA, max_size=30))
def test_merge_deltas_keeps_order_and_text(msgs: list[EventMsg]) -> None:
    events = [Event(id=str(i % 3), msg=msg) for i, msg in enumerate(msgs)]
    merged = merge_deltas(events)
    # Runs of one kind collapse to one event carrying their text, in order (one command's
    # stdout and stderr chunks form one run, as the TUI has always shown them).
    runs: list[tuple[tuple[str, str], str]] = []
    for event in events:
        kind = _kind(event.msg)
        if runs and runs[-1][0] == kind and kind[0] != "task_started":
            runs[-1] = (kind, runs[-1][1] + _text(event.msg))
        else:
            runs.append((kind, _text(event.msg)))
    assert [(_kind(e.msg), _text(e.msg)) for e in merged] == runs


def test_session_process_garbled_output_ends_it_with_one_sentence() -> None:
    script = (
        "import sys, time; sys.stdin.buffer.read(4)\n"
        'print(\'{"t": "ready"}\', flush=True)\n'
        'print(\'{"t": "events", "events": [garbage\', flush=True)\n'
        "time.sleep(60)\n"
    )

    async def run() -> str:
        process = subprocess.Popen(
            [sys.executable, "-c", script],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        core = ProcessCore(process, "the log")
        await core.start(b"strt")
        with pytest.raises(SessionProcessError) as caught:
            await asyncio.wait_for(core.next_event(), WAIT)
        return str(caught.value)

    assert asyncio.run(run()) == "the session process was killed (SIGKILL); see the log"
