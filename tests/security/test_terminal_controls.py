"""Issue 23 item 9: model text and command output never drive the user's terminal.

The model's answer and a command's output carry an OSC 52 clipboard write, a window
title, clear-screen and cursor moves. `codex exec` (human output), the TUI (cells, the
approval prompt) and the replay of a resumed session must show them as visible marks
(`␛]52;c;…␇`: the user sees that something was there and what) and never emit them;
Unicode stays; `--json` keeps the raw text as valid JSON.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from pathlib import Path

import pexpect
from hypothesis import given
from hypothesis import strategies as st

from tests.e2e.test_tui_session import Terminal
from tests.support.model_server import ModelServer
from tests.support.sse import message, shell_call, turn

CLIPBOARD = "UFdORUQtQ0xJUEJPQVJE"  # base64 the model wants in the user's clipboard
ANSWER = (
    f"Answer \x1b]52;c;{CLIPBOARD}\x07 \x1b]0;EVIL-TITLE\x07\x1b[2J\x1b[H\x1b[5A"
    "\x9b2J 日本語 🎉 e\u0301 done"
)
OUTPUT_SCRIPT = r"printf 'out \033]52;c;T1VUUFVU\007 \033]2;OUT-TITLE\033\\ \033[2J end\n'"
# What would act on a terminal (Textual writes its own escapes, but never these).
SEQUENCES = ("\x1b]52;", "\x1b]0;EVIL", "\x1b]2;OUT", "\x9b", "\x1b[5A")
SHOWN = f"Answer ␛]52;c;{CLIPBOARD}␇ ␛]0;EVIL-TITLE␇␛[2J␛[H␛[5A<9b>2J 日本語 🎉 e\u0301 done"
"""The answer as the user sees it."""


def controls(text: str) -> list[str]:
    """The control characters in `text` other than newline and tab (C0, DEL, C1)."""
    return [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F]


def test_codex_exec_human_output_has_no_terminal_controls(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(
        turn(shell_call(["bash", "-c", OUTPUT_SCRIPT])),
        turn(message(ANSWER)),
    )
    argv = [str(codex_bin), "exec", "--skip-git-repo-check", "-s", "danger-full-access"]
    proc = subprocess.run(
        [*argv, *model_server.cli_flags(), "hi"],
        cwd=tmp_path,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
        capture_output=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr
    for stream in (proc.stdout, proc.stderr):
        assert not controls(stream.decode("utf-8")), stream
    assert proc.stdout.decode() == SHOWN + "\n"  # (the answer, alone on stdout)
    # The command's output, its OSC 52, title and clear screen shown, not acted on.
    assert "out ␛]52;c;T1VUUFVU␇ ␛]2;OUT-TITLE␛\\ ␛[2J end" in proc.stderr.decode()
    assert SHOWN in proc.stderr.decode()


def test_codex_exec_json_keeps_the_raw_text_as_valid_json(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(turn(message(ANSWER)))
    argv = [str(codex_bin), "exec", "--json", "--skip-git-repo-check"]
    proc = subprocess.run(
        [*argv, *model_server.cli_flags(), "hi"],
        cwd=tmp_path,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    texts = [e["item"]["text"] for e in events if e.get("item", {}).get("type") == "agent_message"]
    assert texts == [ANSWER]
    assert "\x1b" not in proc.stdout  # escaped inside the JSON strings


def assert_no_model_sequences(written: str) -> None:
    for sequence in SEQUENCES:
        assert sequence not in written, f"{sequence!r} reached the terminal"
    for payload in (CLIPBOARD, "QVBQUk9WQUw="):  # only ever as visible text
        assert f"\x1b]52;c;{payload}" not in written and f"\x9d52;c;{payload}" not in written


def _spawn(codex_bin: Path, args: list[str], cwd: Path) -> tuple[Terminal, io.StringIO]:
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        str(codex_bin), args, cwd=str(cwd), env=env, dimensions=(36, 110), encoding="utf-8"
    )
    raw = io.StringIO()
    child.logfile_read = raw
    return Terminal(child), raw


def test_tui_cells_prompt_and_resume_show_no_terminal_controls(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    # (`touch` keeps it from counting as a known-safe command that runs without a prompt)
    command = ["bash", "-c", OUTPUT_SCRIPT + "; touch made; echo '\x1b]52;c;QVBQUk9WQUw=\x07'"]
    model_server.add(turn(shell_call(command)), turn(message(ANSWER)))
    flags = ["-a", "untrusted", "-s", "danger-full-access", *model_server.cli_flags()]
    term, raw = _spawn(codex_bin, flags, project)
    term.wait_for("Ask Codex to do anything")
    term.child.send("go\r")
    term.wait_for("Allow Codex to run this command?")
    term.child.send("y")
    term.wait_for("日本語")
    term.wait_for(SHOWN)
    term.child.send("\x04")
    term.rest()
    assert_no_model_sequences(raw.getvalue())

    term, raw = _spawn(codex_bin, ["resume", "--last", *flags], project)
    term.wait_for(SHOWN)
    term.wait_for("Ask Codex to do anything")
    term.child.send("\x04")
    term.rest()
    assert_no_model_sequences(raw.getvalue())  # the replay of the resumed session


def test_tui_approval_prompt_shows_what_an_escape_sequence_would_hide(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    """A title sequence wrapped around `touch pwned`: a terminal swallows the payload, and a
    filter that dropped whole sequences would too; the prompt would read `echo  done`."""
    project = tmp_path / "project"
    project.mkdir()
    command = ["bash", "-c", "echo \x1b]0;; touch pwned; echo \x07 done"]
    model_server.add(turn(shell_call(command)), turn(message("noted the denial")))
    flags = ["-a", "untrusted", "-s", "danger-full-access", *model_server.cli_flags()]
    term, raw = _spawn(codex_bin, flags, project)
    term.wait_for("Ask Codex to do anything")
    term.child.send("go\r")
    term.wait_for("Allow Codex to run this command?")
    term.wait_for("touch pwned", timeout=10)  # (a terminal would have swallowed it)
    shown = "\n".join(term.display.display)  # the emulated screen, as the user sees it
    assert "echo ␛]0;; touch pwned; echo ␇ done" in shown, shown
    term.child.send("d")  # decline; the turn goes on
    term.wait_for("noted the denial")
    term.child.send("\x04")
    term.rest()
    assert "\x1b]0;; touch" not in raw.getvalue()
    assert not (project / "pwned").exists()


@given(st.text())
def test_printable_leaves_no_controls_and_keeps_printable_text(text: str) -> None:
    from codex_core.terminal_text import printable

    out = printable(text)
    assert not any(ord(c) < 0x20 and c not in "\n\t" for c in out)
    assert not any(0x7F <= ord(c) <= 0x9F for c in out)
    if all(c.isprintable() or c in "\n\t" for c in text):
        assert out == text
