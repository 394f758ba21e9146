"""The TUI as an app-server client, end to end inside the process: scripted wire messages go
through the real `AppServerCore` to the cells and the Ctrl+T transcript log.

The expected cells, transcript lines and client messages of each scenario are in
`tests/fixtures/tui_wire_scenarios.json`; they were recorded from the TUI when it still
turned the wire back into core events (`wire_events`, before issue 24's direct mapping),
so they pin that nothing a user sees changed — but for two changes on purpose, made after
the port: a command the automatic reviewer refused no longer leaves a "Running" cell behind
(it never ran), and a resumed thread's declined command or patch shows as not approved
instead of as a command that ran and was interrupted. `RECORD_WIRE_SCENARIOS=1` writes them
anew.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from codex_tui.app.codex_app import CodexApp
from codex_tui.app.widgets.footer_bar import FooterBar
from tests.tui.fake_core import PROJECT, frozen_clock, options, settle
from tests.tui.test_pilot_items import cells
from tests.tui.wire_script import THREAD, WireBoot, thread_response

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "tui_wire_scenarios.json"
RECORD = os.environ.get("RECORD_WIRE_SCENARIOS") == "1"

Step = tuple[str, Any]
"""`("push", [messages])`: server messages; `("key", key)`: a key pressed."""


def note(method: str, **params: Any) -> dict[str, Any]:
    return {"method": method, "params": {"threadId": THREAD, **params}}


def request(request_id: int, method: str, **params: Any) -> dict[str, Any]:
    return {"id": request_id, "method": method, "params": {"threadId": THREAD, **params}}


def started(item: dict[str, Any]) -> dict[str, Any]:
    return note("item/started", turnId="t1", item=item)


def completed(item: dict[str, Any]) -> dict[str, Any]:
    return note("item/completed", turnId="t1", item=item)


TURN_STARTED = note("turn/started", turn={"id": "t1", "status": "inProgress", "items": []})
TURN_DONE = note("turn/completed", turn={"id": "t1", "status": "completed", "items": []})
TURN_INTERRUPTED = note("turn/completed", turn={"id": "t1", "status": "interrupted", "items": []})
USER = {"id": "u1", "type": "userMessage", "content": [{"type": "text", "text": "do it"}]}
COMMAND = {
    "id": "c1",
    "type": "commandExecution",
    "command": "/bin/bash -lc 'echo hi > hi.txt'",
    "cwd": PROJECT,
    "status": "inProgress",
    "commandActions": [],
}
PATCH = {
    "id": "p1",
    "type": "fileChange",
    "changes": [{"path": f"{PROJECT}/a.txt", "kind": {"type": "add"}, "diff": "one\ntwo\n"}],
    "status": "inProgress",
}
DIFF = "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n"
MCP = {
    "id": "m1",
    "type": "mcpToolCall",
    "server": "docs",
    "tool": "search",
    "status": "inProgress",
    "arguments": {"q": "x"},
}
SEARCH = {"id": "ws1", "type": "webSearch", "query": ""}
SEARCH_DONE = {
    **SEARCH,
    "query": "textual snapshots",
    "action": {"type": "search", "query": "textual snapshots"},
}


def message(item_id: str, text: str) -> dict[str, Any]:
    return {"id": item_id, "type": "agentMessage", "text": text}


def deltas(item_id: str, *parts: str) -> list[dict[str, Any]]:
    return [note("item/agentMessage/delta", turnId="t1", itemId=item_id, delta=p) for p in parts]


def ask_command(request_id: int) -> dict[str, Any]:
    return request(
        request_id,
        "item/commandExecution/requestApproval",
        turnId="t1",
        itemId="c1",
        command=COMMAND["command"],
        cwd=PROJECT,
        reason="needs to write",
    )


def resolved(request_id: int) -> dict[str, Any]:
    return note("serverRequest/resolved", requestId=request_id)


def hook_run(status: str) -> dict[str, Any]:
    return {
        "id": "hook-1",
        "eventName": "preToolUse",
        "sourcePath": "/home/user/.codex/hooks.json",
        "source": "user",
        "scope": "turn",
        "displayOrder": 0,
        "status": status,
        "statusMessage": None,
        "startedAt": 0,
        "durationMs": 12 if status != "running" else None,
        "entries": [],
    }


SCENARIOS: dict[str, tuple[dict[str, Any] | None, list[Step]]] = {
    "stream": (
        None,
        [
            (
                "push",
                [
                    TURN_STARTED,
                    started(USER),
                    completed(USER),
                    started({"id": "r1", "type": "reasoning", "summary": [], "content": []}),
                    note("item/reasoning/summaryPartAdded", itemId="r1", summaryIndex=0),
                    note("item/reasoning/summaryTextDelta", itemId="r1", delta="**Plan**\n\n"),
                    note("item/reasoning/summaryTextDelta", itemId="r1", delta="Look first."),
                    completed(
                        {
                            "id": "r1",
                            "type": "reasoning",
                            "summary": ["**Plan**\n\nLook first."],
                            "content": [],
                        }
                    ),
                    started(message("a1", "")),
                    *deltas("a1", "Hel", "lo ", "**world**", "\n\n- one\n- two"),
                    completed(message("a1", "Hello **world**\n\n- one\n- two")),
                    note(
                        "thread/tokenUsage/updated",
                        turnId="t1",
                        tokenUsage={
                            "total": {"inputTokens": 1200, "outputTokens": 30, "totalTokens": 1230},
                            "last": {"inputTokens": 1200, "outputTokens": 30, "totalTokens": 1230},
                            "modelContextWindow": 200000,
                        },
                    ),
                    TURN_DONE,
                ],
            )
        ],
    ),
    "command approved": (
        None,
        [
            ("push", [TURN_STARTED, started(USER), completed(USER), started(COMMAND)]),
            ("push", [ask_command(11)]),
            ("key", "y"),
            (
                "push",
                [
                    resolved(11),
                    note("item/commandExecution/outputDelta", itemId="c1", delta="written\n"),
                    completed(
                        {
                            **COMMAND,
                            "status": "completed",
                            "exitCode": 0,
                            "aggregatedOutput": "written\n",
                            "durationMs": 1500,
                        }
                    ),
                    started(message("a2", "")),
                    *deltas("a2", "Done."),
                    completed(message("a2", "Done.")),
                    TURN_DONE,
                ],
            ),
        ],
    ),
    "command denied": (
        None,
        [
            ("push", [TURN_STARTED, started(COMMAND), ask_command(12)]),
            ("key", "d"),
            (
                "push",
                [
                    resolved(12),
                    completed({**COMMAND, "status": "declined"}),
                    completed(message("a3", "I will not write it.")),
                    TURN_DONE,
                ],
            ),
        ],
    ),
    "patch approved": (
        None,
        [
            (
                "push",
                [
                    TURN_STARTED,
                    started(PATCH),
                    note("thread/status/changed", status={"type": "active"}),
                    request(
                        13,
                        "item/fileChange/requestApproval",
                        turnId="t1",
                        itemId="p1",
                        reason="new file",
                    ),
                ],
            ),
            ("key", "y"),
            (
                "push",
                [
                    resolved(13),
                    completed({**PATCH, "status": "completed"}),
                    note("turn/diff/updated", turnId="t1", diff=DIFF),
                    TURN_DONE,
                ],
            ),
        ],
    ),
    "mcp calls": (
        None,
        [
            (
                "push",
                [
                    TURN_STARTED,
                    started(MCP),
                    completed(
                        {
                            **MCP,
                            "status": "completed",
                            "result": {"content": [{"type": "text", "text": "found it"}]},
                            "durationMs": 250,
                        }
                    ),
                    started({**MCP, "id": "m2", "tool": "fetch"}),
                    completed(
                        {
                            **MCP,
                            "id": "m2",
                            "tool": "fetch",
                            "status": "failed",
                            "error": {"message": "server said no"},
                            "durationMs": 40,
                        }
                    ),
                    TURN_DONE,
                ],
            )
        ],
    ),
    "web search": (
        None,
        [("push", [TURN_STARTED, started(SEARCH), completed(SEARCH_DONE), TURN_DONE])],
    ),
    "plan, hooks, notes": (
        None,
        [
            (
                "push",
                [
                    TURN_STARTED,
                    note("hook/started", turnId="t1", run=hook_run("running")),
                    note("hook/completed", turnId="t1", run=hook_run("completed")),
                    note(
                        "turn/plan/updated",
                        turnId="t1",
                        explanation="Three steps",
                        plan=[
                            {"step": "Read the code", "status": "completed"},
                            {"step": "Change it", "status": "inProgress"},
                            {"step": "Test it", "status": "pending"},
                        ],
                    ),
                    note("warning", message="The sandbox is off"),
                    note("thread/backgroundMessage", turnId="t1", message="Context compacted"),
                    started(COMMAND),
                    note(
                        "item/commandExecution/terminalInteraction",
                        itemId="c1",
                        processId="42",
                        stdin="y\n",
                    ),
                    completed(
                        {**COMMAND, "status": "failed", "exitCode": 2, "aggregatedOutput": "no\n"}
                    ),
                    TURN_DONE,
                ],
            )
        ],
    ),
    "interrupt": (
        None,
        [
            (
                "push",
                [
                    TURN_STARTED,
                    started(message("a4", "")),
                    *deltas("a4", "Working on"),
                    started({**COMMAND, "id": "c9", "command": "sleep 30"}),
                    note("item/commandExecution/outputDelta", itemId="c9", delta="tick\n"),
                ],
            ),
            ("key", "escape"),
            (
                "push",
                [
                    completed(
                        {
                            **COMMAND,
                            "id": "c9",
                            "command": "sleep 30",
                            "status": "failed",
                            "exitCode": -1,
                            "aggregatedOutput": "tick\n",
                        }
                    ),
                    TURN_INTERRUPTED,
                ],
            ),
        ],
    ),
    "resume with history": (
        thread_response(
            [
                {
                    "id": "old1",
                    "status": "completed",
                    "items": [
                        {**USER, "id": "h1"},
                        {
                            "id": "h2",
                            "type": "reasoning",
                            "summary": ["**Think**", "Then act"],
                            "content": [],
                        },
                        {
                            **COMMAND,
                            "id": "h3",
                            "status": "completed",
                            "exitCode": 0,
                            "aggregatedOutput": "hi\n",
                            "durationMs": 10,
                        },
                        {**PATCH, "id": "h4", "status": "completed"},
                        {
                            **MCP,
                            "id": "h5",
                            "status": "completed",
                            "result": {"content": [{"type": "text", "text": "ok"}]},
                            "durationMs": 5,
                        },
                        {**SEARCH_DONE, "id": "h6"},
                        {**COMMAND, "id": "h7", "command": "rm -rf /", "status": "declined"},
                        message("h8", "All done before."),
                    ],
                },
                {
                    "id": "old2",
                    "status": "interrupted",
                    "items": [
                        {
                            "id": "h9",
                            "type": "userMessage",
                            "content": [{"type": "text", "text": "and more"}],
                        },
                        message("h10", "Half"),
                    ],
                },
            ]
        ),
        [
            (
                "push",
                [
                    TURN_STARTED,
                    started(USER),
                    completed(USER),
                    completed(message("a5", "Resumed.")),
                    TURN_DONE,
                ],
            )
        ],
    ),
    "errors": (
        None,
        [
            (
                "push",
                [
                    TURN_STARTED,
                    note(
                        "error",
                        turnId="t1",
                        willRetry=True,
                        error={"message": "Reconnecting... 1/5"},
                    ),
                    *deltas("a6", "Par"),
                    note("error", turnId="t1", willRetry=False, error={"message": "stream broke"}),
                    note(
                        "turn/completed",
                        turn={"id": "t1", "status": "failed", "items": [], "error": None},
                    ),
                ],
            )
        ],
    ),
    "another client answers": (
        None,
        [
            ("push", [TURN_STARTED, started(COMMAND), ask_command(14)]),
            (
                "push",
                [
                    resolved(14),
                    note("thread/status/changed", status={"type": "active"}),
                    completed({**COMMAND, "status": "declined"}),
                    started({**COMMAND, "id": "c2"}),
                    {**ask_command(15), "params": {**ask_command(15)["params"], "itemId": "c2"}},
                ],
            ),
            (
                "push",
                [
                    resolved(15),
                    note("item/commandExecution/outputDelta", itemId="c2", delta="again\n"),
                    completed(
                        {
                            **COMMAND,
                            "id": "c2",
                            "status": "completed",
                            "exitCode": 0,
                            "aggregatedOutput": "again\n",
                        }
                    ),
                    TURN_DONE,
                ],
            ),
        ],
    ),
    "auto review": (
        None,
        [
            (
                "push",
                [
                    TURN_STARTED,
                    started(COMMAND),
                    note(
                        "item/autoApprovalReview/completed",
                        turnId="t1",
                        targetItemId="c1",
                        review={"status": "denied", "rationale": "writes outside"},
                        action={"type": "command", "command": COMMAND["command"], "cwd": PROJECT},
                    ),
                    completed({**COMMAND, "status": "declined"}),
                    TURN_DONE,
                ],
            )
        ],
    ),
}


async def _idle(pilot: Any, boot: WireBoot) -> None:
    for _ in range(200):
        if boot.connection.idle():
            break
        await pilot.pause(0.02)
    await settle(pilot, rounds=5)


async def run_scenario(name: str) -> dict[str, Any]:
    """What the scenario shows: its cells, the transcript log's lines, the client's
    messages after the thread was opened (requests and answers)."""
    thread, steps = SCENARIOS[name]
    boot = WireBoot(thread or thread_response())
    resume = thread is not None
    opts = {"resume_path": Path(f"/sessions/rollout-{THREAD}.jsonl")} if resume else {}
    app = CodexApp(boot, options(**opts), clock=frozen_clock())
    async with app.run_test(size=(100, 40)) as pilot:
        await _idle(pilot, boot)
        opened = len(boot.connection.sent)
        for kind, what in steps:
            if kind == "push":
                boot.connection.push(*what)
            else:
                await pilot.press(what)
            await _idle(pilot, boot)
        assert app.chat is not None
        sent = boot.connection.sent[opened:]
        return {
            "cells": cells(app),
            "transcript": [line.plain for line in app.chat.applier.log.lines],
            "sent": [m for m in sent if m.get("method") != "history/append"],
        }


@pytest.mark.parametrize("name", sorted(SCENARIOS))
async def test_pilot_wire_scenario(name: str) -> None:
    got = await run_scenario(name)
    if RECORD:
        recorded = json.loads(FIXTURE.read_text("utf-8")) if FIXTURE.exists() else {}
        recorded[name] = got
        FIXTURE.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", "utf-8")
    expected = json.loads(FIXTURE.read_text("utf-8"))[name]
    assert got == expected


async def test_pilot_wire_startup_warnings_wait_behind_the_badge() -> None:
    """A server's warnings before the first turn (and its configuration's) wait behind the
    footer's badge (F2), as 0.169's TUI shows them; a turn's own join the transcript."""
    boot = WireBoot()
    app = CodexApp(boot, options(), clock=frozen_clock())
    async with app.run_test(size=(100, 40)) as pilot:
        await _idle(pilot, boot)
        boot.connection.push(
            note("warning", message="bubblewrap is missing"),
            note("configWarning", summary="unknown key `x`"),
            TURN_STARTED,
            note("warning", message="during the turn"),
            note("configWarning", summary="a config reloaded"),
            TURN_DONE,
        )
        await _idle(pilot, boot)
        assert app.screen.query_one(FooterBar).warnings == 3
        assert cells(app) == ["NoticeCell: ⚠ during the turn", "SeparatorCell: ─ Worked for <1s"]


async def test_pilot_wire_a_server_without_history_append_is_no_error() -> None:
    """0.169's app-server has no `history/append`: a message is still sent, with no line."""
    boot = WireBoot()
    app = CodexApp(boot, options(), clock=frozen_clock())
    async with app.run_test(size=(100, 40)) as pilot:
        await _idle(pilot, boot)
        boot.connection.refused["history/append"] = "Invalid request: unknown variant"
        await pilot.press("h", "i", "enter")
        await _idle(pilot, boot)
        methods = [m.get("method") for m in boot.connection.sent]
        assert "history/append" in methods and "turn/start" in methods
        assert cells(app) == []
