"""The real `codex` in a pty: the first frame paints at once and echoes typed keys, which
reach the real composer (or, typed with Enter, the model, once); the terminal comes back as
it was (also when start-up fails, or ctrl+c interrupts it, behind the frame)."""

from __future__ import annotations

import os
import re
import shlex
import signal
import time
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.support.model_server import ModelServer
from tests.support.sse import message, turn, usage

pytestmark = pytest.mark.e2e

ANSI = re.compile(
    r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>PX^_\]][^\x1b\x07]*(?:\x07|\x1b\\)?"
)
READY = "Ask Codex to do anything"
TEXTUAL_STARTED = "\x1b[?2004h"  # Textual turns bracketed paste on; the first frame never does


def spawn(argv: list[str], cwd: Path) -> pexpect.spawn:
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "TERM": "xterm-256color"}
    return pexpect.spawn(
        argv[0], argv[1:], cwd=str(cwd), env=env, dimensions=(36, 110), encoding="utf-8"
    )


def _kill_group(child: pexpect.spawn) -> None:
    """Whatever happened, leave no codex behind (a stray one would load the machine)."""
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except OSError:
        pass


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


def typed_on_the_first_frame(child: pexpect.spawn, text: str) -> str:
    """Type `text` as soon as the frame is up; the output until the frame has echoed it,
    which must come before Textual starts."""
    raw = read_until(child, READY)  # the first frame: Textual is still loading
    assert TEXTUAL_STARTED not in raw
    child.send(text)
    raw += read_until(child, "│ " + text.rstrip("\r"))
    assert TEXTUAL_STARTED not in raw, "the echo came from Textual, not the first frame"
    return raw


def user_messages(model_server: ModelServer) -> list[str]:
    """The user messages of every request the model received, as strings."""
    return [
        str(item)
        for request in model_server.requests
        for item in request.body["input"]
        if isinstance(item, dict) and item.get("role") == "user"
    ]


def quit_codex(child: pexpect.spawn) -> None:
    child.send("\x03")
    time.sleep(0.2)
    child.send("\x03")
    child.expect(pexpect.EOF, timeout=20)


def test_tui_text_and_enter_typed_on_the_first_frame_are_sent_once(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(turn(message("Typed early, answered."), usage=usage(input=10, output=3)))
    flags = ["-a", "on-request", "-s", "read-only", *model_server.cli_flags()]
    child = spawn([str(codex_bin), *flags], tmp_path)
    typed_on_the_first_frame(child, "hi from the first frame\r")
    read_until(child, "Typed early, answered.")
    time.sleep(0.5)  # a second send would have reached the model by now
    sent = [m for m in user_messages(model_server) if "hi from the first frame" in m]
    assert len(model_server.requests) == 1 and len(sent) == 1, user_messages(model_server)
    quit_codex(child)


def test_tui_text_typed_on_the_first_frame_lands_in_the_real_composer(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(turn(message("Draft answered."), usage=usage(input=10, output=3)))
    flags = ["-a", "on-request", "-s", "read-only", *model_server.cli_flags()]
    child = spawn([str(codex_bin), *flags], tmp_path)
    raw = typed_on_the_first_frame(child, "draft on the frame")
    raw += read_until(child, ">_ Codex")  # Textual's screen, session ready
    screen = pyte.Screen(110, 36)
    pyte.Stream(screen).feed(raw)
    deadline = time.monotonic() + 10
    while not any("draft on the frame" in line for line in screen.display[-6:]):
        assert time.monotonic() < deadline, "\n".join(screen.display)
        try:
            pyte.Stream(screen).feed(child.read_nonblocking(65536, timeout=0.5))
        except pexpect.TIMEOUT:
            continue
    assert "draft on the frame" not in str(user_messages(model_server))  # not sent: no Enter
    child.send(", finished in Textual\r")
    read_until(child, "Draft answered.")
    sent = [m for m in user_messages(model_server) if "draft on the frame" in m]
    assert len(sent) == 1 and "draft on the frame, finished in Textual" in sent[0], sent
    assert len(model_server.requests) == 1
    quit_codex(child)


def test_tui_ctrl_c_on_the_first_frame_exits_130_and_restores_the_terminal(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    flags = ["-a", "on-request", "-s", "read-only", *model_server.cli_flags()]
    # The shell traps SIGINT (its children get the default back) so that it lives to report.
    script = f"trap : INT; {shlex.join([str(codex_bin), *flags])}; echo rc=$?; stty -a"
    child = spawn(["/bin/sh", "-c", script], tmp_path)
    try:
        raw = read_until(child, READY)
        assert TEXTUAL_STARTED not in raw
        # One write, at once: the terminal turns ^C into SIGINT as it arrives, while the
        # frame's mode is on (Textual, loading, takes the terminal ≥ 250 ms later).
        child.send("never sent\x03")
        child.expect(pexpect.EOF, timeout=20)
    finally:
        _kill_group(child)
    out = ANSI.sub("", child.before or "")
    assert "rc=130" in out and "Traceback" not in out, out[-2000:]
    assert {"icanon", "echo", "icrnl", "ixon"} <= set(out.split())
    assert not model_server.requests


def test_tui_ctrl_d_on_the_first_frame_leaves_at_once(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    flags = ["-a", "on-request", "-s", "read-only", *model_server.cli_flags()]
    child = spawn([str(codex_bin), *flags], tmp_path)
    try:
        raw = read_until(child, READY)
        assert TEXTUAL_STARTED not in raw
        child.send("\x04")
        child.expect(pexpect.EOF, timeout=20)
    finally:
        _kill_group(child)
    child.close()
    rest = child.before or ""
    assert child.exitstatus == 0, ANSI.sub("", rest)[-1500:]
    assert "Traceback" not in rest
    assert not model_server.requests
    deadline = time.monotonic() + 10  # the session process spawned early ends too
    while _session_processes_of_this_test() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _session_processes_of_this_test() == []


def _session_processes_of_this_test() -> list[int]:
    marker = f"CODEX_HOME={os.environ['CODEX_HOME']}\0".encode()
    found = []
    for entry in os.listdir("/proc"):
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            environ = Path(f"/proc/{entry}/environ").read_bytes()
        except (OSError, ValueError):
            continue
        if b"codex_core.servers.app_server.local" in cmdline and marker in environ:
            found.append(int(entry))
    return found


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
