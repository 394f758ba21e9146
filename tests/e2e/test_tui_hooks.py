"""Hooks and skills in the TUI, in a real pseudo-terminal (issue 25): a guard hook the user
trusted blocks a command and the transcript says so in one line; a `$name` mention hands the
model the skill; and an untrusted hook is announced at start instead of running."""

from __future__ import annotations

import json
from pathlib import Path

from codex_core.hooks.sources import load_hooks
from tests.e2e.test_tui_session import spawn
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn

DENY = json.dumps(
    {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no rm here",
        }
    }
)


def setup(codex_home: Path, tmp_path: Path, *, trusted: bool) -> Path:
    guard = tmp_path / "guard.sh"
    guard.write_text(f"#!/bin/sh\ncat >/dev/null\necho '{DENY}'\n")
    guard.chmod(0o755)
    groups = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": str(guard)}]}]
    }
    (codex_home / "hooks.json").write_text(json.dumps({"hooks": groups}))
    if trusted:
        hook = load_hooks(codex_home, {}, None).hooks[0]
        (codex_home / "config.toml").write_text(
            f'[hooks.state."{hook.key}"]\ntrusted_hash = "{hook.current_hash}"\n'
        )
    skill = codex_home / "skills" / "tidy"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: tidy\ndescription: Tidy up\n---\nSTEPS\n")
    project = tmp_path / "project"
    project.mkdir()
    return project


def test_tui_guard_hook_blocks_and_a_skill_mention_reaches_the_model(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, codex_home: Path
) -> None:
    project = setup(codex_home, tmp_path, trusted=True)
    model_server.add(
        turn(function_call("exec_command", {"cmd": "rm -rf build"}, call_id="c1")),
        turn(message("Understood, not removing it.")),
    )
    flags = ["-a", "never", "-s", "danger-full-access", *model_server.cli_flags()]
    term = spawn(codex_bin, flags, project)
    term.wait_for("Ask Codex to do anything")
    term.child.send("clean up with $tidy\r")
    term.wait_for("hook: PreToolUse Blocked — no rm here")
    term.wait_for("Understood, not removing it.")
    term.child.send("\x04")
    term.rest()
    first = model_server.bodies[0]["input"]
    texts = [
        part.get("text", "")
        for item in first
        if item.get("type") == "message"
        for part in item["content"]
    ]
    assert any(t.startswith("<skill>\n<name>tidy</name>") for t in texts)
    outputs = [
        item["output"]
        for item in model_server.bodies[1]["input"]
        if item.get("type") == "function_call_output"
    ]
    assert outputs == ["Command blocked by PreToolUse hook: no rm here. Command: rm -rf build"]


def test_tui_untrusted_hook_is_announced_and_does_not_run(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, codex_home: Path
) -> None:
    project = setup(codex_home, tmp_path, trusted=False)
    flags = ["-a", "never", "-s", "danger-full-access", *model_server.cli_flags()]
    term = spawn(codex_bin, flags, project)
    term.wait_for("1 hook needs review before running")
    term.child.send("\x04")
    term.rest()
