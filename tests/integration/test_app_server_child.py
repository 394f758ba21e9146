"""The local TUI's session: a `codex app-server` child on stdio driven through
`AppServerCore`, against the scripted model server. A turn streams in order, leaving ends
the child, and a dead, garbled or unstartable child is one sentence, never a hang."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from codex_core.items import client as c
from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_core.protocol import ShutdownOp, TextInput, UserInputOp
from codex_core.servers.app_server.remote import RemoteError
from codex_tui.app.app_server_connection import early_requests
from codex_tui.app.app_server_core import AppServerCore
from codex_tui.app.app_server_process import spawn_app_server
from tests.integration.session_harness import provider_overrides
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn, usage

WAIT = 30.0


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # the child inherits it


def _setup(server: ModelServer) -> dict[str, object]:
    flags = {"approval_policy": "never", "sandbox_mode": "read-only"}
    return {"config": provider_overrides(server), "flags": flags}


async def _started(
    server: ModelServer, resume: str | None = None, early: bool = False
) -> AppServerCore:
    process = spawn_app_server(_setup(server))
    method = None
    if early:  # as the TUI does when the thread is known at spawn (`RealBoot.open_early`)
        assert process.stdin is not None
        process.stdin.write(early_requests(resume))
        process.stdin.flush()
        method = "thread/start" if resume is None else "thread/resume"
    start = AppServerCore.start_child(process, "the log", method)
    core = await asyncio.wait_for(start, WAIT)
    await asyncio.wait_for(core.open_child_thread(resume), WAIT)
    return core


async def _until(core: AppServerCore, kind: type[c.ClientNotice]) -> list[c.ClientNotice]:
    seen: list[c.ClientNotice] = []
    while not seen or not isinstance(seen[-1], kind):
        seen += await asyncio.wait_for(core.next_notices(), WAIT)
    return seen


def _process(core: AppServerCore) -> subprocess.Popen[bytes]:
    process: subprocess.Popen[bytes] = core._ws.process  # type: ignore[attr-defined]
    return process


@pytest.mark.parametrize("early", [False, True], ids=["asked-later", "asked-at-spawn"])
def test_app_server_child_streams_a_turn_and_ends_when_left(
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    early: bool,
) -> None:
    monkeypatch.chdir(tmp_path)
    words = [f"w{i} " for i in range(2000)]
    model_server.add(turn(message("".join(words), chunks=words), usage=usage(input=5, output=5)))

    async def run() -> tuple[list[c.ClientNotice], list[c.ClientNotice], int | None]:
        core = await _started(model_server, early=early)
        first = await _until(core, n.ThreadStarted)
        assert await core.submit(UserInputOp(items=[TextInput(text="go")])) != ""
        events = await _until(core, n.TurnEnded)
        await core.submit(ShutdownOp())
        await _until(core, n.SessionEnded)
        code = await asyncio.wait_for(asyncio.to_thread(_process(core).wait), WAIT)
        return first, events, code

    first, events, code = asyncio.run(run())
    assert [type(e) for e in first] == [c.ThreadOpened]
    assert isinstance(events[0], n.TurnStarted)
    deltas = [e for e in events if isinstance(e, n.AgentMessageDelta)]
    assert "".join(d.delta for d in deltas) == "".join(words)
    final = [
        e.item.text
        for e in events
        if isinstance(e, n.ItemCompleted) and isinstance(e.item, k.AgentMessageItem)
    ]
    assert final == ["".join(words)]
    assert events[-1] == n.TurnEnded("tui", "completed")
    assert code == 0
    recorded = list((codex_home / "sessions").rglob("rollout-*.jsonl"))
    assert len(recorded) == 1
    assert '"source":"cli"' in recorded[0].read_text().splitlines()[0].replace(" ", "")


@pytest.mark.parametrize("early", [False, True], ids=["asked-later", "asked-at-spawn"])
def test_app_server_child_resuming_an_unknown_thread_says_why_in_one_line(
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    early: bool,
) -> None:
    monkeypatch.chdir(tmp_path)

    async def run() -> str:
        with pytest.raises(RemoteError) as caught:
            await _started(model_server, "0199a213-81c0-7800-8aa1-bbab2a035a53", early)
        return str(caught.value)

    assert asyncio.run(run()) == (
        "no rollout found for thread id 0199a213-81c0-7800-8aa1-bbab2a035a53"
    )


def test_app_server_child_killed_fails_waiting_calls_without_a_hang(
    model_server: ModelServer, codex_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    async def run() -> tuple[str, str]:
        core = await _started(model_server)
        await _until(core, n.ThreadStarted)
        waiting = asyncio.ensure_future(core.next_notices())
        os.kill(_process(core).pid, signal.SIGKILL)
        with pytest.raises(RemoteError) as caught:
            await asyncio.wait_for(waiting, WAIT)
        sid = await asyncio.wait_for(core.submit(UserInputOp(items=[])), WAIT)
        return str(caught.value), sid

    reason, sid = asyncio.run(run())
    assert reason == "the app-server process was killed (SIGKILL); see the log"
    assert sid == ""


def test_app_server_child_garbled_output_ends_it_with_one_sentence() -> None:
    script = (
        "import sys, json, time\n"
        "line = json.loads(sys.stdin.readline())\n"
        "print(json.dumps({'id': line['id'], 'result': {}}), flush=True)\n"
        "sys.stdin.readline()\n"
        "print('{garbage', flush=True)\n"
        "time.sleep(60)\n"
    )

    async def run() -> str:
        process = subprocess.Popen(
            [sys.executable, "-c", script],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        core = await asyncio.wait_for(AppServerCore.start_child(process, "the log"), WAIT)
        with pytest.raises(RemoteError) as caught:
            await asyncio.wait_for(core.next_notices(), WAIT)
        return str(caught.value)

    assert asyncio.run(run()) == "the app-server process was killed (SIGKILL); see the log"
