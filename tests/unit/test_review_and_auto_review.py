"""Pure parts of code review and automatic approval review: parsing, rendering, context,
and their command lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codex_core.auto_review import denial_text, parse_assessment, planned_action
from codex_core.auto_review.context import ENTRY_CHARS, transcript
from codex_core.protocol import (
    AddChange,
    CommitTarget,
    CustomTarget,
    FunctionCall,
    FunctionCallOutput,
    ResponseItem,
    ReviewOutput,
    UncommittedTarget,
    assistant_message,
    user_message,
)
from codex_core.review import (
    parse_review_output,
    render_review,
    review_hint,
    review_prompt,
    review_text,
)
from codex_tui.cli.args import UsageError
from codex_tui.cli.main import build_tui_parser
from codex_tui.cli.overrides import overrides_from_args
from codex_tui.exec.review import build_review_parser, parse_target, review_words

FINDING = {
    "title": "[P1] Subtraction instead of addition",
    "body": "add() now returns a - b.\nCallers expect a sum.",
    "confidence_score": 0.9,
    "priority": 1,
    "code_location": {"absolute_file_path": "/r/m.py", "line_range": {"start": 2, "end": 3}},
}


def test_review_render_one_and_several_findings() -> None:
    one = ReviewOutput.model_validate({"findings": [FINDING], "overall_explanation": "Broken."})
    assert render_review(one) == (
        "Broken.\n\nReview comment:\n\n- [P1] Subtraction instead of addition — /r/m.py:2-3\n"
        "  add() now returns a - b.\n  Callers expect a sum."
    )
    two = one.model_copy(update={"findings": one.findings * 2})
    assert "\n\nFull review comments:\n\n- [P1]" in render_review(two)


def test_review_answer_json_in_prose_plain_text_and_nothing() -> None:
    answer = json.dumps({"findings": [], "overall_explanation": "Fine."})
    assert parse_review_output(f"Here it is:\n{answer}\nbye") is not None
    assert review_text(answer) == ("Fine.", parse_review_output(answer))
    assert review_text("  Looks fine to me.\n") == ("Looks fine to me.", None)
    assert review_text('{"findings": "not a list"}')[1] is None
    assert review_text(None) == ("", None)


def test_assessment_parsing_fails_closed() -> None:
    allow = parse_assessment('{"outcome": "allow", "rationale": " ok ", "risk_level": "low"}')
    assert (allow.outcome, allow.rationale, allow.risk_level, allow.failure) == (
        "allow",
        "ok",
        "low",
        None,
    )
    for bad in ("not json", "[]", '{"outcome": "yes"}', '{"rationale": "allow"}', ""):
        got = parse_assessment(bad)
        assert got.outcome == "deny" and got.failure is not None, bad
    assert denial_text(parse_assessment("nope")).startswith("Automatic approval review could")
    denied = parse_assessment('{"outcome": "deny", "rationale": "Too broad."}')
    assert "Reason: Too broad." in denial_text(denied)


def test_auto_review_context_skips_codex_context_and_bounds_entries() -> None:
    history: list[ResponseItem] = [
        user_message("<environment_context>\n  <cwd>/r</cwd>\n</environment_context>"),
        user_message("make the file"),
        FunctionCall(name="exec_command", arguments='{"cmd": "ls"}', call_id="c0"),
        FunctionCallOutput(call_id="c0", output="x" * (ENTRY_CHARS * 3)),
        assistant_message("Now writing it."),
    ]
    entries = transcript(history)
    assert entries[0] == "[1] user: make the file"
    assert entries[1] == '[2] tool exec_command call: {"cmd": "ls"}'
    assert entries[2].startswith("[3] tool exec_command result: ")
    assert len(entries[2]) < ENTRY_CHARS + 100 and "characters left out" in entries[2]
    assert entries[3] == "[4] agent: Now writing it."


def test_auto_review_planned_action_for_a_patch_and_a_command() -> None:
    call = FunctionCall(
        name="exec_command",
        arguments='{"cmd": "rm -rf x", "sandbox_permissions": "require_escalated"}',
        call_id="c1",
    )
    action = planned_action(
        [call], "c1", command=["bash", "-lc", "rm -rf x"], cwd=Path("/r"), reason="clean"
    )
    assert action == {
        "tool": "exec_command",
        "command": ["bash", "-lc", "rm -rf x"],
        "cwd": "/r",
        "sandbox_permissions": "require_escalated",
        "justification": "clean",
    }
    patch = planned_action([], "p1", changes={"/o/a.txt": AddChange(content="hi\n")})
    assert patch == {
        "tool": "apply_patch",
        "files": [{"path": "/o/a.txt", "kind": "add", "content": "hi\n"}],
    }


def test_review_targets_hint_and_prompt(tmp_path: Path) -> None:
    sha = "0762ca06904ea3b73a787d09e998080fa735679e"
    assert review_hint(UncommittedTarget()) == "current changes"
    assert review_hint(CommitTarget(sha=sha)) == "commit 0762ca0"
    assert review_hint(CommitTarget(sha=sha, title="Add b")) == "commit 0762ca0: Add b"
    assert f'commit {sha} ("Add b")' in review_prompt(
        CommitTarget(sha=sha, title="Add b"), tmp_path
    )
    assert review_prompt(CustomTarget(instructions=" as typed "), tmp_path) == " as typed "


def test_review_and_approve_for_me_command_lines() -> None:

    assert review_words(["-m", "x", "review", "--base", "main"]) == ["-m", "x", "--base", "main"]
    assert review_words(["-m", "review"]) is None  # `review` is -m's value: a prompt follows
    assert review_words(["fix the review"]) is None
    parser = build_review_parser("codex review")
    for argv in (["--uncommitted", "also"], ["--base", "a", "--commit", "b"], ["--title", "t"]):
        with pytest.raises(UsageError):
            parse_target(parser.parse_intermixed_args(argv), "codex review")
    ns = build_tui_parser().parse_args(["--approve-for-me"])
    got = overrides_from_args(ns, approval=None)
    assert (got.approval_policy, got.sandbox_mode, got.approvals_reviewer) == (
        "on-request",
        "workspace-write",
        "auto_review",
    )
    for flag in (["-a", "never"], ["--full-auto"], ["--yolo"], ["-s", "read-only"]):
        with pytest.raises(UsageError, match="cannot be used with"):
            overrides_from_args(
                build_tui_parser().parse_args(["--approve-for-me", *flag]), approval=None
            )
