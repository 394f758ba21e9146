"""After ACP `session/cancel` and after Ctrl+C in `codex exec`, the next request tells the
model its turn was cut off (a `<turn_aborted>` user message, as codex-rust 0.169 records).

`turn/interrupt` through the app-server is covered in `test_app_server_sdk.py`; the TUI's
Ctrl+C submits the same interrupt op to the same session.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import acp

from codex_core.session.inputs import TURN_ABORTED_TEXT
from tests.servers.rpc_client import CODEX
from tests.servers.test_acp import RecordingClient, _run, _with_agent
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn
from tests.support.steps import slow


def _user_texts(body: dict[str, Any]) -> list[str]:
    return [
        part["text"]
        for item in body["input"]
        if item.get("type") == "message" and item.get("role") == "user"
        for part in item["content"]
        if part.get("type") == "input_text"
    ]


def test_acp_cancel_then_next_prompt_tells_the_model(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    chunks = [f"w{i} " for i in range(200)]
    model_server.add(slow(turn(message("".join(chunks), chunks=chunks)), 0.05))
    model_server.add(turn(message("again")))
    client = RecordingClient()

    async def body(conn: Any) -> Any:
        session = await conn.new_session(cwd=str(workspace), mcp_servers=[])
        running = asyncio.ensure_future(
            conn.prompt(session_id=session.session_id, prompt=[acp.text_block("long")])
        )
        while "agent_message_chunk" not in client.kinds():
            await asyncio.sleep(0.02)
        await conn.cancel(session_id=session.session_id)
        first = await running
        second = await conn.prompt(session_id=session.session_id, prompt=[acp.text_block("next")])
        return first, second

    first, second = _run(_with_agent(model_server, codex_home, client, body))
    assert (first.stop_reason, second.stop_reason) == ("cancelled", "end_turn")
    assert _user_texts(model_server.bodies[1])[-2:] == [TURN_ABORTED_TEXT, "next"]


def test_exec_ctrl_c_then_resume_tells_the_model(
    model_server: ModelServer, codex_home: Path, workspace: Path
) -> None:
    marker = workspace / "pid.txt"
    command = f"echo $$ > {marker}; sleep 30"
    model_server.add(turn(function_call("exec_command", {"cmd": command}, "c1")))
    model_server.add(turn(message("resumed")))
    env = {**os.environ, "CODEX_HOME": str(codex_home), "OPENAI_API_KEY": "sk-test"}
    flags = ["--skip-git-repo-check", "-s", "danger-full-access", *model_server.cli_flags()]
    proc = subprocess.Popen(
        [str(CODEX), "exec", *flags, "wait"],
        cwd=workspace,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not marker.exists() or not marker.read_text().strip():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the command never started"
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=20)
    assert proc.returncode == 1
    resumed = subprocess.run(
        [str(CODEX), "exec", "resume", "--last", *flags, "go on"],
        cwd=workspace,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert _user_texts(model_server.bodies[-1])[-2:] == [TURN_ABORTED_TEXT, "go on"]
    [output] = [
        i["output"]
        for i in model_server.bodies[-1]["input"]
        if i.get("type") == "function_call_output"
    ]
    assert re.fullmatch(r"Wall time: \d+\.\d seconds\naborted by user", output)  # as 0.169
