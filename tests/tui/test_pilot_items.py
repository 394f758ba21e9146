"""The chat screen renders the item projection: the cells of the flows where an item's start,
begin and end do not line up one to one with its events — an allowed command shows as it
begins, an allowed write to a terminal never shows as a command, an MCP call asked about
keeps one cell, a command re-run after a sandbox denial gets a second cell, a turn's end cuts
short what it left running, a resumed session's past. The expected cells are those the screen
showed when it matched on raw events (before issue 24's port), recorded from it."""

from __future__ import annotations

import pytest

from codex_core import protocol as ev
from codex_tui.app.codex_app import CodexApp
from codex_tui.app.widgets.cells.agent_cell import AgentCell
from codex_tui.app.widgets.cells.header_cell import HeaderCell
from codex_tui.app.widgets.transcript import Transcript
from tests.tui.fake_core import FakeBoot, configured, frozen_clock, options, settle

CHANGES: dict[str, ev.FileChange] = {"/p/a.txt": ev.AddChange(content="x\n")}
CALL = ev.McpInvocation(server="docs", tool="search", arguments={"q": "x"})
ASK_MCP = ["mcp", "docs", "search", '{"q": "x"}']
WORKED = "SeparatorCell: ─ Worked for <1s"
Flow = tuple[list[ev.EventMsg], str | None, list[ev.EventMsg], list[str]]
"""Events, the key pressed on the approval prompt (if any), events after it, the cells."""

FLOWS: dict[str, Flow] = {
    "allowed command shows as it begins": (
        [
            ev.TaskStartedEvent(),
            ev.UserMessageEvent(message="go"),
            ev.ExecApprovalRequestEvent(call_id="c1", command=["pytest", "-q"], cwd="/p"),
        ],
        "y",
        [
            ev.ExecCommandBeginEvent(call_id="c1", command=["pytest", "-q"], cwd="/p"),
            ev.ExecCommandOutputDeltaEvent(call_id="c1", stream="stdout", chunk="ok\n"),
            ev.ExecCommandEndEvent(
                call_id="c1", exit_code=0, aggregated_output="ok\n", duration_ms=1200
            ),
            ev.TaskCompleteEvent(),
        ],
        [
            "UserCell: › go",
            "NoticeCell: ✔ You approved codex to run pytest -q",
            "ExecCell: ● Ran pytest -q\n  └ ok\n    ✓ exit 0 · 1.2s",
            WORKED,
        ],
    ),
    "allowed write to a terminal is no command": (
        [
            ev.TaskStartedEvent(),
            ev.ExecApprovalRequestEvent(
                call_id="w1", command=["write_stdin", "--session-id", "3", "y\n"], cwd="/p"
            ),
        ],
        "y",
        [
            ev.TerminalInteractionEvent(call_id="w1", process_id="3", stdin="y\n"),
            ev.TaskCompleteEvent(),
        ],
        [
            "NoticeCell: ✔ You approved codex to run write_stdin --session-id 3 'y",
            "NoticeCell: • sent 'y\\n' to session 3",
            WORKED,
        ],
    ),
    "MCP call asked about keeps its cell": (
        [
            ev.TaskStartedEvent(),
            ev.McpToolCallBeginEvent(call_id="m1", invocation=CALL),
            ev.ExecApprovalRequestEvent(call_id="m1", command=ASK_MCP, cwd="/p"),
        ],
        "y",
        [
            ev.McpToolCallEndEvent.ok(
                "m1", CALL, 0.25, {"content": [{"type": "text", "text": "found"}]}
            ),
            ev.TaskCompleteEvent(),
        ],
        [
            'McpCell: ● Called docs.search({"q": "x"}) · 250ms\n  └ found',
            'NoticeCell: ✔ You approved codex to run mcp docs search \'{"q": "x"}\'',
            WORKED,
        ],
    ),
    "re-run after a sandbox denial": (
        [
            ev.TaskStartedEvent(),
            ev.ExecCommandBeginEvent(call_id="c2", command=["make"], cwd="/p"),
            ev.ExecCommandEndEvent(call_id="c2", exit_code=1, stderr="denied", duration_ms=5),
            ev.ExecApprovalRequestEvent(call_id="c2", command=["make"], cwd="/p"),
        ],
        "y",
        [
            ev.ExecCommandBeginEvent(call_id="c2", command=["make"], cwd="/p"),
            ev.ExecCommandEndEvent(call_id="c2", exit_code=0, stdout="built", duration_ms=7),
            ev.TaskCompleteEvent(),
        ],
        [
            "ExecCell: ● Ran make\n  └ denied\n    ✗ exit 1 · 5ms",
            "NoticeCell: ✔ You approved codex to run make",
            "ExecCell: ● Ran make\n  └ built\n    ✓ exit 0 · 7ms",
            WORKED,
        ],
    ),
    "interrupted turn cuts short what runs": (
        [
            ev.TaskStartedEvent(),
            ev.ExecCommandBeginEvent(call_id="c3", command=["sleep", "9"], cwd="/p"),
            ev.ExecCommandOutputDeltaEvent(call_id="c3", stream="stdout", chunk="tick\n"),
            ev.PatchApplyBeginEvent(call_id="p2", auto_approved=True, changes=CHANGES),
            ev.McpToolCallBeginEvent(call_id="m2", invocation=CALL),
            ev.WebSearchBeginEvent(call_id="s1"),
            ev.TurnAbortedEvent(),
        ],
        None,
        [  # an MCP call or a search may still end after its turn
            ev.TaskStartedEvent(),
            ev.McpToolCallEndEvent.ok("m2", CALL, 0.1, {"content": []}),
            ev.WebSearchEndEvent(call_id="s1", query="q"),
            ev.TaskCompleteEvent(),
        ],
        [
            "ExecCell: ● Ran sleep 9\n  └ tick\n    ✗ interrupted · 0ms",
            "PatchCell: ● Added /p/a.txt (+1 -0)\n    1 +x\n  └ ✗ aborted by user",
            'McpCell: ● Called docs.search({"q": "x"}) · 100ms',
            "WebSearchCell: • Searched q",
            "NoticeCell: ■ Interrupted. Tell the model what to do differently.",
            WORKED,
        ],
    ),
}


def cells(app: CodexApp) -> list[str]:
    """Each transcript cell below the header as `Class: text` (separators cut to their label)."""
    assert app.chat is not None
    shown: list[str] = []
    for cell in app.chat.query_one(Transcript).children:
        if isinstance(cell, HeaderCell):
            continue
        if isinstance(cell, AgentCell):
            height = cell.size.height
            text = "\n".join(cell.render_line(y).text.rstrip() for y in range(height))
        else:
            text = str(cell.render())
        shown.append(f"{type(cell).__name__}: {text}".rstrip("─ "))
    return shown


@pytest.mark.parametrize("flow", sorted(FLOWS))
async def test_pilot_items_cells_of_a_flow(flow: str) -> None:
    before, key, after, expected = FLOWS[flow]
    boot = FakeBoot()
    app = CodexApp(boot, options(), clock=frozen_clock())
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        boot.core.emit(*before)
        await settle(pilot, boot.core)
        if key is not None:
            await pilot.press(key)
            await settle(pilot, boot.core)
        boot.core.emit(*after)
        await settle(pilot, boot.core)
        assert cells(app) == expected


async def test_pilot_items_resumed_session_shows_its_past() -> None:
    past: list[ev.EventMsg] = [
        ev.TaskStartedEvent(),
        ev.UserMessageEvent(message="old q"),
        ev.ExecCommandBeginEvent(call_id="r1", command=["ls"], cwd="/p"),  # its end never came
        ev.ExecCommandEndEvent(call_id="r2", exit_code=0, command=["pwd"], stdout="/p"),
        ev.ExecApprovalRequestEvent(call_id="r3", command=["x"], cwd="/p"),  # not asked again
        ev.ApprovalDecisionEvent(call_id="r3", kind="exec", decision="denied", command=["x"]),
        ev.PatchApplyEndEvent(call_id="rp", success=True, changes=CHANGES),
        ev.AgentMessageEvent(message="old a"),
        ev.TurnAbortedEvent(),
        ev.TaskStartedEvent(),
        ev.StreamErrorEvent(message="retry"),  # no status line for the past
        ev.TaskCompleteEvent(),
    ]
    boot = FakeBoot(configured_event=configured(initial_messages=[m.to_wire() for m in past]))
    app = CodexApp(boot, options(), clock=frozen_clock())
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, rounds=4)
        assert cells(app) == [
            "UserCell: › old q",
            "ExecCell: ● Ran ls\n  └ ✗ interrupted · 0ms",
            "ExecCell: ● Ran pwd\n  └ /p\n    ✓ exit 0 · 0ms",
            "NoticeCell: ✗ You did not approve codex to run x; the turn goes on",
            "PatchCell: ● Added /p/a.txt (+1 -0)\n    1 +x",
            "AgentCell: • old a",
            "NoticeCell: ■ Interrupted. Tell the model what to do differently.",
        ]
        assert app.chat is not None and not app.chat.running
