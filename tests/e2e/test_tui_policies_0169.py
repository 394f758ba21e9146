"""The TUI's sandbox and approval policy per folder trust, in a pty, against what codex-rust
0.169 did in the same cases (tests/fixtures/tui_policies_0169.json, recorded side by side in a
pty with the scripted model server): outside git with no trust decision it runs
workspace-write under `granular` (edits in the folder without asking, leaving the sandbox
refused without asking, nothing written to config.toml); a trusted folder workspace-write
asking on request; one recorded untrusted opens (after the open-restricted screen, every
launch) workspace-write under `untrusted` (edits asked)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.test_tui_session import Terminal, spawn
from tests.support import sse
from tests.support.model_server import ModelServer
from tests.support.trust import trust_project

pytestmark = pytest.mark.e2e

FIXTURE = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "tui_policies_0169.json").read_text()
)
PATCH = "*** Begin Patch\n*** Add File: made.txt\n+hello\n*** End Patch\n"


def _escalation(target: Path) -> sse.FunctionCallOut:
    args = {
        "cmd": f"touch {target}",
        "sandbox_permissions": "require_escalated",
        "justification": "Touch a file outside the folder?",
    }
    return sse.function_call("exec_command", args, call_id="e1")


def _status(term: Terminal) -> tuple[str, str]:
    """The /status lines for the approval policy and the sandbox, once the session is open
    (before, they say `default`)."""
    term.wait_for("/compact")  # the header, drawn from the opened session
    term.forget()
    term.child.send("/status")
    term.wait_for("/status")
    term.child.send("\r")
    term.wait_for("Token usage")
    lines = [line.strip() for line in term.display.display]
    approval = next(line for line in lines if line.startswith("Approval:"))
    sandbox = next(line for line in lines if line.startswith("Sandbox:"))
    return approval.split(":", 1)[1].split()[0], sandbox.split(":", 1)[1].split()[0]


def _prompt(term: Terminal, text: str, until: str) -> None:
    term.forget()
    term.child.send(text)
    term.wait_for(text)
    term.child.send("\r")
    term.wait_for(until, timeout=30)


def _first_environment(server: ModelServer) -> str:
    """The environment context of the first turn's request."""
    for request in server.requests:
        for item in request.body.get("input", []):
            for part in item.get("content") or []:
                text = part.get("text", "") if isinstance(part, dict) else ""
                if "<environment_context>" in text:
                    return str(text)
    raise AssertionError("no request carried an environment context")


@pytest.mark.parametrize("case", sorted(FIXTURE["cases"]))
def test_tui_policy_per_trust_as_0169(codex_bin: Path, tmp_path: Path, case: str) -> None:
    seen = FIXTURE["cases"][case]
    home = Path(os.environ["CODEX_HOME"])
    work, outside = tmp_path / "work", tmp_path / "outside.txt"
    work.mkdir()
    if case == "trusted":  # 0.169's case: a repository, the question answered "trust"
        subprocess.run(["git", "init", "-q"], cwd=work, check=True, timeout=30)
    elif seen["trust_level"] is not None:
        trust_project(work, seen["trust_level"])
    before = (home / "config.toml").read_text() if (home / "config.toml").exists() else ""
    steps = [sse.turn(sse.custom_tool_call("apply_patch", PATCH, call_id="p1"))]
    steps.append(sse.turn(sse.message("patched ok")))
    if case == "no_trust_outside_git":
        steps += [sse.turn(_escalation(outside)), sse.turn(sse.message("escalation done"))]
    with ModelServer(steps) as server:
        term = spawn(codex_bin, [*server.cli_flags(), "-c", 'model="gpt-5.5"'], work)
        try:
            if case == "recorded_untrusted":  # 0.169: the open-restricted screen first
                term.wait_for("Open restricted")
                term.child.send("\r")
            if case == "trusted":
                term.wait_for("You are running Codex in")
                term.child.send("1")
            term.wait_for("Ask Codex to do anything")
            assert _status(term) == (seen["approval_policy"], seen["sandbox_mode"])
            if case == "recorded_untrusted":  # 0.169 asks about the edit
                _prompt(term, "make the file", "Allow Codex to make these edits?")
                term.child.send("y")
                term.wait_for("patched ok")
            else:  # 0.169 writes it without asking
                _prompt(term, "make the file", "patched ok")
                assert "Allow Codex" not in term.screen
            assert (work / "made.txt").read_text() == "hello\n"
            if case == "no_trust_outside_git":  # refused, nobody asked
                _prompt(term, "escalate now", "escalation done")
                assert "Allow" not in term.screen
                output = server.requests[-1].body["input"][-1]
                assert output["call_id"] == "e1"
                assert "`granular`" in output["output"], output
                assert not outside.exists()
        finally:
            term.child.terminate(force=True)
        environment = _first_environment(server)
    assert f"<approval_policy>{seen['approval_policy']}</approval_policy>" in environment
    assert f"<sandbox_mode>{seen['sandbox_mode']}</sandbox_mode>" in environment
    after = (home / "config.toml").read_text() if (home / "config.toml").exists() else ""
    written = after.replace(before, "")
    if case == "trusted":  # the answer is recorded, as 0.169 records it
        assert f'[projects."{work}"]' in written and 'trust_level = "trusted"' in written
    else:  # no trust decision written
        assert "trust_level" not in written


def test_the_model_cannot_record_trust_or_change_the_policy(
    codex_bin: Path, tmp_path: Path
) -> None:
    """Under the no-trust default (workspace-write, `granular`) with CODEX_HOME inside a
    writable root (/tmp): neither a patch nor a command can write config.toml (trust, policy),
    a workspace `.codex/config.toml` or a `.git` that would make the folder a repository."""
    home = Path(os.environ["CODEX_HOME"])
    config = home / "config.toml"
    before = config.read_text() if config.exists() else ""
    work = tmp_path / "work"
    work.mkdir()
    trusted = f'[projects."{work}"]\ntrust_level = "trusted"\napproval_policy = "never"\n'
    patch = (
        f"*** Begin Patch\n*** Add File: {home / 'extra.toml'}\n+x = 1\n"
        '*** Add File: .codex/config.toml\n+sandbox_mode = "danger-full-access"\n'
        "*** End Patch\n"
    )
    command = (
        f"printf '{trusted}' >> {config} || echo config-denied; "
        "mkdir .git 2>/dev/null || echo git-denied"
    )
    steps = [
        sse.turn(sse.custom_tool_call("apply_patch", patch, call_id="p1")),
        sse.turn(sse.function_call("exec_command", {"cmd": command}, call_id="e1")),
        sse.turn(sse.message("all tried")),
    ]
    with ModelServer(steps) as server:
        term = spawn(codex_bin, [*server.cli_flags(), "-c", 'model="gpt-5.5"'], work)
        try:
            term.wait_for("Ask Codex to do anything")
            _prompt(term, "try it", "all tried")
            assert "Allow" not in term.screen  # nobody was asked
        finally:
            term.child.terminate(force=True)
        outputs = {
            item["call_id"]: str(item["output"])
            for item in server.requests[-1].body["input"]
            if item.get("type") in ("function_call_output", "custom_tool_call_output")
        }
    assert "`granular`" in outputs["p1"], outputs
    assert "config-denied" in outputs["e1"] and "git-denied" in outputs["e1"], outputs
    assert (config.read_text() if config.exists() else "") == before
    assert not (home / "extra.toml").exists()
    assert sorted(p.name for p in work.iterdir()) == []
