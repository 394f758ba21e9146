"""The real `codex` TUI in a pseudo-terminal against the scripted model server."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.support.model_server import ModelServer
from tests.support.sse import message, reasoning, shell_call, turn, usage

pytestmark = pytest.mark.e2e

ANSI = re.compile(
    r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>PX^_\]][^\x1b\x07]*(?:\x07|\x1b\\)?"
)


class Terminal:
    """A pexpect child whose output is searched both as a stream (escapes removed) and on an
    emulated screen: Textual redraws only what changed, so a line may never pass through the
    stream in one piece, but it is always whole on the screen."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.screen = ""
        rows, cols = child.getwinsize()
        self.display = pyte.Screen(cols, rows)
        self.feed = pyte.Stream(self.display)

    def _seen(self, text: str) -> bool:
        return text in self.screen or any(text in line for line in self.display.display)

    def wait_for(self, text: str, timeout: float = 20) -> None:
        """Read output until `text` appears on the screen or in the output stream."""
        deadline = time.monotonic() + timeout
        while not self._seen(text):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                shown = "\n".join(line.rstrip() for line in self.display.display)
                log = Path(os.environ["CODEX_HOME"]) / "log" / "codex-tui.log"
                tail = log.read_text()[-3000:] if log.exists() else "(no log)"
                raise AssertionError(f"{text!r} never appeared; screen:\n{shown}\nlog:\n{tail}")
            try:
                chunk = self.child.read_nonblocking(65536, timeout=min(0.5, remaining))
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                if text in self.screen:
                    return
                raise AssertionError(
                    f"codex exited before {text!r}:\n{self.screen[-2000:]}"
                ) from None
            self.feed.feed(chunk)
            self.screen += ANSI.sub("", chunk)

    def wait_for_composer(self, text: str, timeout: float = 20) -> None:
        """Read output until the composer (the box drawn from the screen's first column) shows
        a line ending in `text`: what was typed has reached it."""
        wanted = text.strip()
        deadline = time.monotonic() + timeout
        while not any(
            line.startswith("│") and line.strip().strip("│").strip().endswith(wanted)
            for line in self.display.display
        ):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                shown = "\n".join(line.rstrip() for line in self.display.display)
                raise AssertionError(f"the composer never showed {wanted!r}; screen:\n{shown}")
            try:
                chunk = self.child.read_nonblocking(65536, timeout=min(0.5, remaining))
            except pexpect.TIMEOUT:
                continue
            self.feed.feed(chunk)
            self.screen += ANSI.sub("", chunk)

    def forget(self) -> None:
        """Search only output that arrives from now on (the emulated screen is cleared too)."""
        self.screen = ""
        self.display.reset()

    def rest(self, timeout: float = 20) -> str:
        """Everything until the program exits."""
        self.child.expect(pexpect.EOF, timeout=timeout)
        return self.screen + ANSI.sub("", self.child.before or "")


def spawn(codex_bin: Path, args: list[str], cwd: Path) -> Terminal:
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "TERM": "xterm-256color", "COLUMNS": "110"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        str(codex_bin), args, cwd=str(cwd), env=env, dimensions=(36, 110), encoding="utf-8"
    )
    return Terminal(child)


def test_tui_prompt_approve_and_resume_through_picker(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    model_server.add(
        turn(
            reasoning("**Creating the file**\n\nOne command will do."),
            shell_call(["bash", "-lc", "echo hello > created.txt"]),
            usage=usage(input=100, output=20),
        ),
        turn(message("Created created.txt for you."), usage=usage(input=200, output=30)),
        turn(message("Welcome back, still here."), usage=usage(input=300, output=10)),
    )
    flags = ["-a", "untrusted", "-s", "danger-full-access", *model_server.cli_flags()]

    term = spawn(codex_bin, flags, project)
    term.wait_for("Ask Codex to do anything")
    term.child.send("please create the file\r")
    term.wait_for("Allow Codex to run this command?")
    term.wait_for("echo hello > created.txt")
    term.forget()
    term.child.send("y")
    term.wait_for("Created created.txt for you.")
    assert (project / "created.txt").read_text() == "hello\n"
    term.child.send("\x03")
    term.wait_for("again to quit")
    term.child.send("\x03")
    tail = term.rest()
    match = re.search(r"To continue this session, run codex resume ([0-9a-f-]{36})", tail)
    assert match, tail[-1500:]
    assert "Token usage: total=350" in tail
    session_id = match.group(1)

    term = spawn(codex_bin, ["resume", *flags], project)
    term.wait_for("Resume a previous session")
    term.wait_for("please create the file")
    term.forget()
    term.child.send("\r")
    term.wait_for("Created created.txt for you.")
    term.wait_for("Ask Codex to do anything")
    term.child.send("are you there?\r")
    term.wait_for("Welcome back, still here.")
    term.child.send("\x04")
    tail = term.rest()
    assert f"codex resume {session_id}" in tail
    last_request = model_server.bodies[-1]
    texts = [
        part.get("text", "")
        for item in last_request["input"]
        if item.get("type") == "message"
        for part in item["content"]
    ]
    assert "please create the file" in texts and texts[-1] == "are you there?"


def test_tui_first_run_asks_trust_then_key_and_saves_both(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, codex_home: Path
) -> None:
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (project / ".git" / "objects").mkdir()
    (codex_home / "config.toml").write_text('# my settings\nmodel = "gpt-5-codex"\n')
    env_args = model_server.cli_flags()
    env = {**os.environ, "TERM": "xterm-256color"}
    env.pop("OPENAI_API_KEY", None)
    child = pexpect.spawn(
        str(codex_bin), env_args, cwd=str(project), env=env, dimensions=(36, 110), encoding="utf-8"
    )
    term = Terminal(child)
    term.wait_for("You are running Codex in")
    term.child.send("1")
    term.wait_for("No API key found for mock")
    term.child.send("sk-pasted\r")
    term.wait_for("Ask Codex to do anything")
    term.wait_for("workspace-write")
    term.child.send("\x04")
    term.rest()
    config = (codex_home / "config.toml").read_text()
    assert config.startswith('# my settings\nmodel = "gpt-5-codex"\n')
    assert f'[projects."{project.resolve()}"]' in config
    assert 'trust_level = "trusted"' in config
    auth = codex_home / "auth.json"
    assert json.loads(auth.read_text())["OPENAI_API_KEY"] == "sk-pasted"
    assert auth.stat().st_mode & 0o777 == 0o600
