"""Lifecycle hooks through `codex exec` (issue 25), as Codex CLI 0.169 runs them.

Every hook here is a real program that records the JSON it gets on stdin. Expected texts —
what the model is told for a block, where additional context goes, the `<hook_prompt>`
continuation, the payload fields in order — come from side-by-side runs of `codex-rust
exec` 0.169 against the same scripted model server.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from codex_core.hooks.sources import load_hooks
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn

BYPASS = "--dangerously-bypass-hook-trust"


class Setup:
    """A CODEX_HOME with hooks, a git project, and a folder where hooks record payloads."""

    def __init__(self, tmp_path: Path, codex_bin: Path) -> None:
        self.codex_bin = codex_bin
        self.base = tmp_path
        self.home = tmp_path / "codex_home"
        self.project = tmp_path / "project"
        self.records = tmp_path / "records"
        for folder in (self.home, self.project, self.records):
            folder.mkdir()
        subprocess.run(["git", "init", "-q", str(self.project)], check=True)

    def hook(self, name: str, body: str = "", timeout: int | None = 10) -> dict[str, Any]:
        """A handler running a script that saves its stdin as `records/<name>.<pid>.json`."""
        script = self.base / f"{name}.sh"
        script.write_text(f"#!/bin/sh\ncat > {self.records}/{name}.$$.json\n{body}\n")
        script.chmod(0o755)
        handler: dict[str, Any] = {"type": "command", "command": str(script)}
        if timeout is not None:
            handler["timeout"] = timeout
        return handler

    def write_hooks(self, hooks: dict[str, Any], where: Path | None = None) -> Path:
        path = (where or self.home) / "hooks.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"hooks": hooks}))
        return path

    def payloads(self, name: str) -> list[dict[str, Any]]:
        files = sorted(self.records.glob(f"{name}.*.json"), key=lambda p: p.stat().st_mtime_ns)
        return [json.loads(p.read_text()) for p in files]

    def exec(
        self, server: ModelServer, *args: str, timeout: float = 60
    ) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "OPENAI_API_KEY": "sk-test", "CODEX_HOME": str(self.home)}
        return subprocess.run(
            [str(self.codex_bin), "exec", "-s", "danger-full-access", *server.cli_flags()]
            + ["-m", "mock-model", *args],
            cwd=self.project,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )


@pytest.fixture
def setup(tmp_path: Path, codex_bin: Path) -> Setup:
    return Setup(tmp_path, codex_bin)


def echo_call() -> Any:
    return turn(
        function_call(
            "exec_command", {"cmd": "echo HELLO-OUT > ran.txt; echo HELLO-OUT"}, call_id="c1"
        )
    )


def sent(server: ModelServer, index: int = -1) -> list[tuple[str, str]]:
    """(kind, text) of the last request's messages and tool outputs, context blocks left out."""
    out: list[tuple[str, str]] = []
    for item in server.bodies[index]["input"]:
        if item.get("type") == "message":
            text = item["content"][0].get("text", "")
            if not text.startswith(("<environment_context>", "<user_instructions>")):
                out.append((item["role"], text))
        elif item.get("type") in ("function_call_output", "function_call"):
            out.append((item["type"], str(item.get("output", item.get("call_id")))))
    return out


def test_hooks_pre_tool_use_deny_blocks_the_command_in_0169s_words(
    setup: Setup, model_server: ModelServer
) -> None:
    deny = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no echo"}}'
    setup.write_hooks(
        {"PreToolUse": [{"matcher": "Bash", "hooks": [setup.hook("pre", f"echo '{deny}'")]}]}
    )
    model_server.add(echo_call(), turn(message("done")))
    done = setup.exec(model_server, BYPASS, "do it")
    assert done.returncode == 0, done.stderr
    assert not (setup.project / "ran.txt").exists()
    assert (
        "function_call_output",
        "Command blocked by PreToolUse hook: no echo. Command: "
        "echo HELLO-OUT > ran.txt; echo HELLO-OUT",
    ) in sent(model_server)
    lines = [line for line in done.stderr.splitlines() if line.startswith("hook:")]
    assert lines == ["hook: PreToolUse", "hook: PreToolUse Blocked"]
    [payload] = setup.payloads("pre")
    assert list(payload) == [
        "session_id",
        "turn_id",
        "transcript_path",
        "cwd",
        "hook_event_name",
        "model",
        "permission_mode",
        "tool_name",
        "tool_input",
        "tool_use_id",
    ]
    assert payload["tool_name"] == "Bash" and payload["tool_use_id"] == "c1"
    assert payload["permission_mode"] == "bypassPermissions"
    assert payload["cwd"] == str(setup.project)
    assert Path(payload["transcript_path"]).is_file()


def test_hooks_exit_2_blocks_with_stderr_and_a_crash_blocks_nothing(
    setup: Setup, model_server: ModelServer
) -> None:
    setup.write_hooks(
        {"PreToolUse": [{"hooks": [setup.hook("pre", "echo 'bad idea' >&2; exit 2")]}]}
    )
    model_server.add(echo_call(), turn(message("done")))
    setup.exec(model_server, BYPASS, "do it")
    assert (
        "function_call_output",
        "Command blocked by PreToolUse hook: bad idea. Command: "
        "echo HELLO-OUT > ran.txt; echo HELLO-OUT",
    ) in sent(model_server)
    setup.write_hooks({"PreToolUse": [{"hooks": [setup.hook("pre", "echo garbage{; exit 1")]}]})
    model_server.add(echo_call(), turn(message("done")))
    done = setup.exec(model_server, BYPASS, "again")
    assert (setup.project / "ran.txt").exists()
    assert "hook: PreToolUse Failed" in done.stderr


def test_hooks_context_reaches_the_model_where_0169_puts_it(
    setup: Setup, model_server: ModelServer
) -> None:
    def ctx(event: str, text: str) -> str:
        return f"echo '{json.dumps({'hookSpecificOutput': {'hookEventName': event, 'additionalContext': text}})}'"

    setup.write_hooks(
        {
            "SessionStart": [{"hooks": [setup.hook("ss", "echo SS-PLAIN")]}],
            "UserPromptSubmit": [
                {"hooks": [setup.hook("ups", ctx("UserPromptSubmit", "UPS-CTX"))]}
            ],
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [setup.hook("pre", ctx("PreToolUse", "PRE-CTX"))]}
            ],
            "PostToolUse": [
                {"matcher": "Bash", "hooks": [setup.hook("post", ctx("PostToolUse", "POST-CTX"))]}
            ],
        }
    )
    model_server.add(echo_call(), turn(message("done")))
    done = setup.exec(model_server, BYPASS, "do it")
    assert done.returncode == 0, done.stderr
    messages = [
        entry
        for entry in sent(model_server)
        if entry[0] != "developer" or "CTX" in entry[1] or "SS-" in entry[1]
    ]
    assert messages == [
        ("developer", "SS-PLAIN"),
        ("user", "do it"),
        ("developer", "UPS-CTX"),
        ("function_call", "c1"),
        ("developer", "PRE-CTX"),
        ("developer", "POST-CTX"),
        messages[-1],
    ]
    assert messages[-1][0] == "function_call_output" and messages[-1][1].endswith("HELLO-OUT\n")
    [post] = setup.payloads("post")
    assert post["tool_response"] == "HELLO-OUT\n"
    assert list(post)[-3:] == ["tool_input", "tool_response", "tool_use_id"]
    [start] = setup.payloads("ss")
    assert start["source"] == "startup" and "turn_id" not in start


def test_hooks_post_tool_use_block_replaces_the_output(
    setup: Setup, model_server: ModelServer
) -> None:
    setup.write_hooks(
        {
            "PostToolUse": [
                {"hooks": [setup.hook("post", 'echo \'{"decision":"block","reason":"REPLACED"}\'')]}
            ]
        }
    )
    model_server.add(echo_call(), turn(message("done")))
    setup.exec(model_server, BYPASS, "do it")
    assert ("function_call_output", "REPLACED") in sent(model_server)
    assert (setup.project / "ran.txt").exists()  # it ran: PostToolUse comes after


def test_hooks_user_prompt_block_sends_nothing_and_records_nothing(
    setup: Setup, model_server: ModelServer
) -> None:
    setup.write_hooks(
        {
            "UserPromptSubmit": [
                {"hooks": [setup.hook("ups", 'echo \'{"decision":"block","reason":"NOPE"}\'')]}
            ]
        }
    )
    done = setup.exec(model_server, BYPASS, "--json", "a secret prompt")
    assert done.returncode == 0, done.stderr
    assert model_server.requests == []
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert [e["type"] for e in events if e["type"].startswith("turn")] == [
        "turn.started",
        "turn.completed",
    ]
    assert events[-1]["usage"]["input_tokens"] == 0
    rollouts = list((setup.home / "sessions").rglob("*.jsonl"))
    assert rollouts and all("a secret prompt" not in p.read_text() for p in rollouts)


def test_hooks_stop_block_continues_the_same_turn(setup: Setup, model_server: ModelServer) -> None:
    body = (
        f"if grep -q '\"stop_hook_active\":false' {setup.records}/stop.$$.json; then "
        'echo \'{"decision":"block","reason":"KEEP GOING"}\'; fi'
    )
    path = setup.write_hooks({"Stop": [{"hooks": [setup.hook("stop", body)]}]})
    model_server.add(turn(message("first")), turn(message("second")))
    done = setup.exec(model_server, BYPASS, "--json", "do it")
    events = [json.loads(line) for line in done.stdout.splitlines()]
    texts = [e["item"]["text"] for e in events if e.get("item", {}).get("type") == "agent_message"]
    assert texts == ["first", "second"]
    assert [e["type"] for e in events].count("turn.completed") == 1
    assert sent(model_server)[-1] == (
        "user",
        f'<hook_prompt hook_run_id="stop:0:{path}">KEEP GOING</hook_prompt>',
    )
    runs = setup.payloads("stop")
    assert [(r["stop_hook_active"], r["last_assistant_message"]) for r in runs] == [
        (False, "first"),
        (True, "second"),
    ]


def test_hooks_untrusted_skip_silently_trusted_run_changed_stop(
    setup: Setup, model_server: ModelServer
) -> None:
    setup.write_hooks({"UserPromptSubmit": [{"hooks": [setup.hook("ups")]}]})
    model_server.add(turn(message("a")), turn(message("b")), turn(message("c")))
    quiet = setup.exec(model_server, "--json", "untrusted")
    assert setup.payloads("ups") == [] and '"error"' not in quiet.stdout
    hook = load_hooks(setup.home, {}, None).hooks[0]
    config = setup.home / "config.toml"
    config.write_text(f'[hooks.state."{hook.key}"]\ntrusted_hash = "{hook.current_hash}"\n')
    setup.exec(model_server, "trusted")
    assert len(setup.payloads("ups")) == 1
    setup.write_hooks({"UserPromptSubmit": [{"hooks": [setup.hook("ups", timeout=11)]}]})
    setup.exec(model_server, "changed since")
    assert len(setup.payloads("ups")) == 1  # its timeout changed: untrusted until reviewed


def test_hooks_disabled_never_run_and_bypass_warns(setup: Setup, model_server: ModelServer) -> None:
    setup.write_hooks({"UserPromptSubmit": [{"hooks": [setup.hook("ups")]}]})
    key = load_hooks(setup.home, {}, None).hooks[0].key
    (setup.home / "config.toml").write_text(f'[hooks.state."{key}"]\nenabled = false\n')
    model_server.add(turn(message("a")))
    done = setup.exec(model_server, BYPASS, "--json", "hi")
    assert setup.payloads("ups") == []
    errors = [
        json.loads(line)["item"]["message"]
        for line in done.stdout.splitlines()
        if '"error"' in line
    ]
    assert errors == [
        "`--dangerously-bypass-hook-trust` is enabled. Enabled hooks may run without review "
        "for this invocation."
    ]


def test_hooks_of_a_project_run_only_when_it_is_trusted(
    setup: Setup, model_server: ModelServer
) -> None:
    setup.write_hooks(
        {"UserPromptSubmit": [{"hooks": [setup.hook("ups")]}]}, setup.project / ".codex"
    )
    model_server.add(turn(message("a")), turn(message("b")))
    setup.exec(model_server, BYPASS, "untrusted project")
    assert setup.payloads("ups") == []
    (setup.home / "config.toml").write_text(
        f'[projects."{setup.project}"]\ntrust_level = "trusted"\n'
    )
    setup.exec(model_server, BYPASS, "trusted project")
    assert len(setup.payloads("ups")) == 1


def test_hooks_timeout_kills_the_hook_and_the_turn_goes_on(
    setup: Setup, model_server: ModelServer
) -> None:
    marker = f"sleep 59.{os.getpid() % 100000}"
    setup.write_hooks(
        {
            "PreToolUse": [{"hooks": [setup.hook("pre", marker, timeout=1)]}],
        }
    )
    model_server.add(echo_call(), turn(message("done")))
    started = time.monotonic()
    done = setup.exec(model_server, BYPASS, "do it")
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 20
    assert (setup.project / "ran.txt").exists()
    assert "hook: PreToolUse Failed" in done.stderr
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True)
    assert left.stdout == ""  # no hook process outlives its run
