"""The real `codex` in a pty: the first frame paints at once, typed keys survive it, and the
terminal comes back as it was (also when start-up fails behind the frame)."""

from __future__ import annotations

import os
import re
import shlex
import time
from pathlib import Path

import pexpect
import pytest

from tests.support.model_server import ModelServer
from tests.support.sse import message, turn, usage

pytestmark = pytest.mark.e2e

ANSI = re.compile(
    r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>PX^_\]][^\x1b\x07]*(?:\x07|\x1b\\)?"
)
READY = "Ask Codex to do anything"


def spawn(argv: list[str], cwd: Path) -> pexpect.spawn:
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "TERM": "xterm-256color"}
    return pexpect.spawn(
        argv[0], argv[1:], cwd=str(cwd), env=env, dimensions=(36, 110), encoding="utf-8"
    )


def read_until(child: pexpect.spawn, text: str, timeout: float = 20) -> str:
    """Raw output up to and including the first `text` (escapes removed for the search)."""
    raw, deadline = "", time.monotonic() + timeout
    while text not in ANSI.sub("", raw):
        if time.monotonic() > deadline:
            raise AssertionError(f"{text!r} never appeared:\n{ANSI.sub('', raw)[-2000:]}")
        try:
            raw += child.read_nonblocking(65536, timeout=0.5)
        except pexpect.TIMEOUT:
            continue
    return raw


def test_tui_keys_typed_on_the_first_frame_reach_the_composer(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(turn(message("Typed early, answered."), usage=usage(input=10, output=3)))
    flags = ["-a", "on-request", "-s", "read-only", *model_server.cli_flags()]
    child = spawn([str(codex_bin), *flags], tmp_path)
    read_until(child, READY)  # the first frame: Textual is still loading
    child.send("hi from the first frame\r")
    read_until(child, "Typed early, answered.")
    user_turn = model_server.requests[0].body["input"][-1]
    assert "hi from the first frame" in str(user_turn)
    child.send("\x03")
    time.sleep(0.2)
    child.send("\x03")
    child.expect(pexpect.EOF, timeout=20)


def test_tui_gives_the_terminal_back_as_it_was(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    flags = ["-a", "on-request", "-s", "read-only", *model_server.cli_flags()]
    script = f"{shlex.join([str(codex_bin), *flags])}; stty -a"
    child = spawn(["/bin/sh", "-c", script], tmp_path)
    read_until(child, ">_ Codex")  # Textual's screen (a ctrl+c before it interrupts codex)
    child.send("\x03")
    time.sleep(0.2)
    child.send("\x03")
    child.expect(pexpect.EOF, timeout=20)
    modes = (child.before or "").split()
    assert {"icanon", "echo", "icrnl", "ixon"} <= set(modes)


def test_tui_error_behind_the_first_frame_lands_on_the_normal_screen(
    codex_bin: Path, tmp_path: Path
) -> None:
    child = spawn([str(codex_bin), "-c", "model_provider=no-such-provider"], tmp_path)
    child.expect(pexpect.EOF, timeout=20)
    raw = child.before or ""
    assert "\x1b[?1049h" in raw
    left = raw.rindex("\x1b[?1049l")
    assert "no-such-provider" in raw[left:]
    child.close()
    assert child.exitstatus == 1
