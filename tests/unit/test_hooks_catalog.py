"""Hook definitions, trust and matchers, checked against what Codex CLI 0.169 reported.

`tests/fixtures/hooks_0169/hooks_list.json` is `codex-rust app-server`'s `hooks/list` for a
hooks.json with matchers, default and zero timeouts and a status message: every key,
timeout, display order and `currentHash` must come out the same here, since a hook trusted
by one tool must run in the other.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codex_core.hooks.catalog import HookCatalog
from codex_core.hooks.matching import matches
from codex_core.hooks.outcome import interpret
from codex_core.hooks.runner import RunResult
from codex_core.hooks.sources import load_hooks

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "hooks_0169" / "hooks_list.json"


def test_hooks_keys_hashes_and_order_match_0169(tmp_path: Path) -> None:
    recorded = json.loads(FIXTURE.read_text())
    (tmp_path / "hooks.json").write_text(json.dumps(recorded["hooks"]))
    catalog = load_hooks(tmp_path, {}, None)
    ours = [
        {
            "key": hook.key.replace(str(tmp_path), "{CODEX_HOME}"),
            "eventName": hook.event.camel,
            "matcher": hook.matcher,
            "command": hook.command,
            "timeoutSec": hook.timeout,
            "statusMessage": hook.status_message,
            "currentHash": hook.current_hash,
            "displayOrder": index,
        }
        for index, hook in enumerate(catalog.hooks)
    ]
    keep = ("key", "eventName", "matcher", "command", "timeoutSec", "statusMessage")
    theirs = [
        {
            **{k: h[k] for k in keep},
            "currentHash": h["currentHash"],
            "displayOrder": h["displayOrder"],
        }
        for h in recorded["listed"]
    ]
    assert ours == theirs
    assert catalog.warnings == []


def test_hooks_trust_record_decides_what_runs(tmp_path: Path) -> None:
    recorded = json.loads(FIXTURE.read_text())
    (tmp_path / "hooks.json").write_text(json.dumps(recorded["hooks"]))
    first = load_hooks(tmp_path, {}, None).hooks[0]
    state = {"state": {first.key: {"trusted_hash": first.current_hash}}}
    catalog = load_hooks(tmp_path, state, None)
    assert catalog.trust(first) == "trusted"
    assert [h.key for h in catalog.runnable("PreToolUse")] == [first.key]
    changed = {"state": {first.key: {"trusted_hash": "sha256:" + "0" * 64}}}
    assert load_hooks(tmp_path, changed, None).runnable("PreToolUse") == []
    assert load_hooks(tmp_path, changed, None).trust(first) == "modified"
    off = {"state": {first.key: {"trusted_hash": first.current_hash, "enabled": False}}}
    assert load_hooks(tmp_path, off, None).runnable("PreToolUse", bypass_trust=True) == [
        h for h in load_hooks(tmp_path, off, None).hooks[1:3]
    ]


def test_hooks_from_both_user_sources_warn_and_both_load(tmp_path: Path) -> None:
    group = [{"hooks": [{"type": "command", "command": "true"}]}]
    (tmp_path / "hooks.json").write_text(json.dumps({"hooks": {"Stop": group}}))
    catalog = load_hooks(tmp_path, {"Stop": group, "UserPromptSubmit": group}, None)
    assert [h.source_path.name for h in catalog.hooks] == [
        "config.toml",
        "hooks.json",
        "config.toml",
    ]
    assert catalog.warnings == [
        f"loading hooks from both {tmp_path}/hooks.json and {tmp_path}/config.toml; "
        "prefer a single representation for this layer"
    ]


def test_hooks_prompt_and_agent_handlers_are_skipped_with_a_warning(tmp_path: Path) -> None:
    group = [{"hooks": [{"type": "prompt", "prompt": "x"}, {"type": "agent"}]}]
    (tmp_path / "hooks.json").write_text(json.dumps({"hooks": {"Stop": group}}))
    catalog = load_hooks(tmp_path, {}, None)
    assert catalog.hooks == []
    path = tmp_path / "hooks.json"
    assert catalog.warnings == [
        f"skipping prompt hook in {path}: prompt hooks are not supported yet",
        f"skipping agent hook in {path}: agent hooks are not supported yet",
    ]


# What fired and what did not, seen with codex-rust exec 0.169 (hooks_skills_0169.md).
@pytest.mark.parametrize(
    ("matcher", "tool", "fires"),
    [
        *[
            (m, "Bash", True)
            for m in ("Bash", "^Bash$", "Bash|Nope", "as.", ".ash", "^Bas", ".*", "*", None)
        ],
        *[(m, "Bash", False) for m in ("exec_command", "bash", "Bas", "B")],
        *[(m, "apply_patch", True) for m in ("apply_patch", "Edit", "Write", "Edit|Write", ".*")],
        ("Bash", "apply_patch", False),
        ("mcp__echo__echo", "mcp__echo__echo", True),
        ("echo", "mcp__echo__echo", False),
    ],
)
def test_hooks_matchers_as_observed(matcher: str | None, tool: str, fires: bool) -> None:
    assert matches(matcher, tool) is fires


def run(code: int | None = 0, out: str = "", err: str = "", timed_out: bool = False) -> RunResult:
    return RunResult(code, out, err, timed_out, 1)


@pytest.mark.parametrize(
    ("event", "result", "status", "reason", "context"),
    [
        ("PreToolUse", run(2, err=" no \n"), "blocked", "no", []),
        ("PreToolUse", run(2), "failed", None, []),
        ("PreToolUse", run(1, out='{"decision":"block"}'), "failed", None, []),
        ("PreToolUse", run(0, out="{not json"), "failed", None, []),
        ("PreToolUse", run(0, out="plain text"), "completed", None, []),
        ("PreToolUse", run(None, timed_out=True), "failed", None, []),
        ("SessionStart", run(0, out="  hello \n"), "completed", None, ["hello"]),
        ("UserPromptSubmit", run(0, out='{"decision":"block","reason":"R"}'), "blocked", "R", []),
        ("PostToolUse", run(0, out='{"continue":false,"stopReason":"S"}'), "stopped", "S", []),
        ("Stop", run(0, out='{"decision":"block"}'), "failed", None, []),
        ("Stop", run(0, out='{"decision":"block","reason":"go on"}'), "blocked", "go on", []),
    ],
)
def test_hooks_outcomes(
    event: str, result: RunResult, status: str, reason: str | None, context: list[str]
) -> None:
    outcome = interpret(event, result)
    assert (outcome.status, outcome.reason, outcome.context) == (status, reason, context)


def test_hooks_unknown_state_entries_are_harmless() -> None:
    catalog = HookCatalog(state={"x": {"trusted_hash": 3}})
    assert catalog.hooks == [] and catalog.runnable("Stop") == []
