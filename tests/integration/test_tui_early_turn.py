"""The launch prompt's turn starts as soon as the app-server child has opened the thread
(`codex_tui.app.early_turn`), before the app exists — and the child receives exactly the
lines it receives when the chat screen sends the prompt itself: same requests, same ids,
same order, nothing twice (a real child behind a pipe that records its input)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from codex_core.items import client as c
from codex_core.items import notices as n
from codex_core.protocol import ShutdownOp
from codex_core.servers.app_server.remote import RemoteError
from codex_tui.app.app_server_connection import early_requests
from codex_tui.app.app_server_core import AppServerCore
from codex_tui.app.app_server_ops import wire_input
from codex_tui.app.app_server_process import BOOT
from codex_tui.app.early_turn import EarlyTurn, launch_input
from codex_tui.app.screens.chat_outbox import Outbox
from tests.integration.session_harness import provider_overrides
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

WAIT = 30.0
UNKNOWN = "0199a213-81c0-7800-8aa1-bbab2a035a53"
TEE = (
    "import subprocess, sys\n"
    "log = open(sys.argv[1], 'ab', buffering=0)\n"
    "child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE)\n"
    "for line in sys.stdin.buffer:\n"
    "    log.write(line); child.stdin.write(line); child.stdin.flush()\n"
    "child.stdin.close(); sys.exit(child.wait())\n"
)
"""Passes its input on to the child line by line and records it (the output is the
child's own)."""


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # the child inherits it


def _spawn(server: ModelServer, log: Path, resume: str | None) -> subprocess.Popen[bytes]:
    """An app-server child as `spawn_app_server` starts it, behind the recording pipe, with
    the early requests written."""
    setup = {"config": provider_overrides(server), "flags": {"approval_policy": "never"}}
    child = [sys.executable, "-I", "-c", BOOT.format(path=list(sys.path)), json.dumps(setup)]
    process = subprocess.Popen(
        [sys.executable, "-c", TEE, str(log), *child],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stdin is not None
    process.stdin.write(early_requests(resume))
    process.stdin.flush()
    return process


async def _until_turn_ends(core: AppServerCore) -> list[c.ClientNotice]:
    seen: list[c.ClientNotice] = []
    while not any(isinstance(notice, n.TurnEnded) for notice in seen):
        seen += await asyncio.wait_for(core.next_notices(), WAIT)
    return seen


class Recorder:
    """A watcher (as the session frame's painter) that keeps what it is shown; with
    `fail_at`, it raises on that message (a display's bug)."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.result: dict[str, object] | None = None
        self.messages: list[dict[str, object]] = []
        self.fail_at = fail_at
        self.failed = False

    def opened(self, result: dict[str, object]) -> bool:
        self.result = result
        return True

    def message(self, message: dict[str, object]) -> bool:
        if len(self.messages) == self.fail_at:
            self.failed = True
            raise KeyError("a bug in the display")
        self.messages.append(message)
        return message.get("method") != "turn/completed"

    def deltas(self) -> str:
        return "".join(
            str(m["params"]["delta"])  # type: ignore[index]
            for m in self.messages
            if m.get("method") == "item/agentMessage/delta"
        )


def _session(
    server: ModelServer, log: Path, early_turn: bool, watcher: Recorder | None = None
) -> list[c.ClientNotice]:
    """The app's start with a launch prompt: the thread, the prompt (as the chat screen
    sends it), the answer, leaving."""
    process = _spawn(server, log, None)
    already, presend = b"", {}
    if early_turn:
        early = EarlyTurn(process, "thread/start", launch_input("hello", []), watcher)
        early.start()
        deadline = time.monotonic() + WAIT
        while not server.requests:  # the turn runs before there is any app
            assert time.monotonic() < deadline, "the launch prompt's turn did not start"
            time.sleep(0.01)
        if watcher is not None:  # it follows the turn until told to stop (`join`)
            while "hi there" not in watcher.deltas() and not watcher.failed:
                assert time.monotonic() < deadline, watcher.messages
                time.sleep(0.01)
            time.sleep(0.05)
        assert early.join(WAIT)
        already, presend = bytes(early.read), early.sent
        assert set(presend) == {"history/metadata/read", "turn/start"}

    async def run() -> list[c.ClientNotice]:
        start = AppServerCore.start_child(
            process, "the log", "thread/start", already=already, presend=presend
        )
        core = await asyncio.wait_for(start, WAIT)
        await asyncio.wait_for(core.open_child_thread(None), WAIT)
        await Outbox(core).send("hello")  # what `show_session` does with the prompt
        notices = await _until_turn_ends(core)
        await core.submit(ShutdownOp())
        await asyncio.wait_for(asyncio.to_thread(process.wait), WAIT)
        return notices

    return asyncio.run(run())


def _lines(log: Path) -> list[str]:
    """The recorded input, the thread's id (new each run) replaced."""
    text = log.read_text()
    ids = {
        json.loads(line)["params"]["threadId"] for line in text.splitlines() if '"threadId"' in line
    }
    for thread_id in ids:
        text = text.replace(thread_id, "THREAD")
    return text.splitlines()


def test_the_launch_turn_starts_early_and_the_child_reads_the_same_lines(
    model_server: ModelServer, codex_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        model_server.add(turn(message("hi there", chunks=["hi", " there"])))
    late = _session(model_server, tmp_path / "late.jsonl", early_turn=False)
    early = _session(model_server, tmp_path / "early.jsonl", early_turn=True)

    assert _lines(tmp_path / "early.jsonl") == _lines(tmp_path / "late.jsonl")
    methods = [json.loads(line).get("method") for line in _lines(tmp_path / "early.jsonl")]
    assert methods[:6] == [
        "initialize",
        "initialized",
        "thread/start",
        "history/metadata/read",
        "turn/start",
        "history/append",
    ]
    assert len(model_server.requests) == 2  # one model request per session: none twice
    # the same notices, but for how the deltas were batched (all at once, when early)
    assert _kinds(early) == _kinds(late)
    for notices in (early, late):
        deltas = [x.delta for x in notices if isinstance(x, n.AgentMessageDelta)]
        assert "".join(deltas) == "hi there"


@pytest.mark.parametrize("fail_at", [None, 0, 3], ids=["watched", "fails-at-once", "fails-later"])
def test_a_watcher_sees_the_turn_and_the_core_still_gets_every_byte(
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fail_at: int | None,
) -> None:
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        model_server.add(turn(message("hi there", chunks=["hi", " there"])))
    late = _session(model_server, tmp_path / "late.jsonl", early_turn=False)
    watcher = Recorder(fail_at)
    watched = _session(model_server, tmp_path / "early.jsonl", True, watcher)

    assert _lines(tmp_path / "early.jsonl") == _lines(tmp_path / "late.jsonl")
    assert _kinds(watched) == _kinds(late)
    deltas = [x.delta for x in watched if isinstance(x, n.AgentMessageDelta)]
    assert "".join(deltas) == "hi there"  # what the watcher read reached the core too
    assert watcher.result is not None and "thread" in watcher.result
    if fail_at is None:
        assert watcher.deltas() == "hi there"
        assert watcher.messages[-1]["method"] == "turn/completed"
    else:
        assert len(watcher.messages) == fail_at


def _kinds(notices: list[c.ClientNotice]) -> list[str]:
    return [type(x).__name__ for x in notices if not isinstance(x, n.AgentMessageDelta)]


def test_no_early_turn_when_the_thread_is_refused(
    model_server: ModelServer, codex_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    process = _spawn(model_server, tmp_path / "input.jsonl", UNKNOWN)
    early = EarlyTurn(process, "thread/resume", launch_input("hello", []))
    early.start()
    assert early.join(WAIT)
    assert early.sent == {}

    async def run() -> str:
        start = AppServerCore.start_child(
            process, "the log", "thread/resume", already=bytes(early.read)
        )
        core = await asyncio.wait_for(start, WAIT)
        with pytest.raises(RemoteError) as caught:
            await asyncio.wait_for(core.open_child_thread(UNKNOWN), WAIT)
        await asyncio.wait_for(asyncio.to_thread(process.wait), WAIT)
        return str(caught.value)

    assert asyncio.run(run()) == f"no rollout found for thread id {UNKNOWN}"
    methods = [json.loads(line).get("method") for line in _lines(tmp_path / "input.jsonl")]
    assert methods == ["initialize", "initialized", "thread/resume"]
    assert model_server.requests == []


def test_a_cancelled_early_turn_writes_nothing(
    model_server: ModelServer, codex_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    process = _spawn(model_server, tmp_path / "input.jsonl", None)
    early = EarlyTurn(process, "thread/start", launch_input("hello", []))
    early.cancel()  # as leaving before the app starts does (`RealBoot.release_spare`)
    early.start()
    assert early.join(WAIT)
    assert early.sent == {}
    assert process.stdin is not None
    process.stdin.close()
    assert process.wait(WAIT) == 0
    methods = [json.loads(line).get("method") for line in _lines(tmp_path / "input.jsonl")]
    assert methods == ["initialize", "initialized", "thread/start"]
    assert model_server.requests == []


@pytest.mark.parametrize(
    ("text", "images"),
    [("hello", []), ("", ["a.png"]), ("see  ", ["./x/b.png", "/abs/c.jpg"]), ("é\n∑", [])],
)
def test_launch_input_is_the_chat_screens_message_on_the_wire(text: str, images: list[str]) -> None:
    async def screen_sends() -> list[dict[str, object]]:
        outbox = Outbox()  # held until a session exists: what the screen would submit
        await outbox.send(text, images)
        return wire_input(outbox.unsent[0].items)  # type: ignore[union-attr]

    assert launch_input(text, images) == asyncio.run(screen_sends())
