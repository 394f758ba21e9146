"""Transcript cells and lines made from one notice each: the turn's separator, `/mcp`'s
table, a hook run, and what another client or the automatic reviewer decided."""

from __future__ import annotations

from codex_core.frontend.commands import display_command
from codex_core.items import client as c
from codex_core.items import notices as n
from codex_core.protocol import HookRun
from codex_tui.app.formatting import format_elapsed
from codex_tui.app.widgets.cells.info_cell import InfoCell
from codex_tui.app.widgets.cells.notice_cell import NoticeCell


def worked_label(seconds: float, waited: float) -> str:
    """`Worked for 12s`, and the approval wait it leaves out when there was one."""
    shown = format_elapsed(seconds) if seconds >= 1 else "<1s"
    if waited < 1:
        return f"Worked for {shown}"
    return f"Worked for {shown} (plus {format_elapsed(waited)} waiting for your approval)"


def mcp_servers_cell(msg: c.McpServersListed) -> InfoCell:
    """`/mcp`: each server's state and tools."""
    rows: list[tuple[str, str]] = []
    for server in msg.servers:
        state = server.status if not server.error else f"{server.status}: {server.error}"
        rows.append((server.name, state))
        rows.append(("", "tools: " + (", ".join(server.tools) or "none")))
    note = None if rows else "No MCP servers are configured; add one with `codex mcp add`."
    return InfoCell("MCP servers", rows, note=note)


def hook_line(run: HookRun) -> str:
    """`hook: PreToolUse Blocked — reason` (the reason or error when there is one)."""
    detail = next((e["text"] for e in run.entries if e.get("kind") in ("feedback", "error")), "")
    line = f"hook: {run.event_name} {run.status.capitalize()}"
    return f"{line} — {detail}" if detail else line


def another_client_cell(msg: n.ApprovalDecided) -> NoticeCell:
    """A line saying what another client of the thread decided (`codex --remote`)."""
    if msg.kind == "exec":
        shown = display_command(msg.command) if msg.command else "the command"
        subject = f"codex to run {shown.split(chr(10))[0]}"
    else:
        subject = "the edits"
    if msg.decision in ("approved", "approved_for_session"):
        return NoticeCell("approved", f"Another client approved {subject}")
    return NoticeCell("denied", f"Another client did not approve {subject}")


def auto_review_cell(msg: n.ApprovalDecided) -> NoticeCell:
    """A line saying what the automatic reviewer decided in the user's place."""
    if msg.kind == "exec":
        shown = display_command(msg.command) if msg.command else "the command"
        subject = f"codex to run {shown.split(chr(10))[0]}"
    else:
        subject = "the edits"
    if msg.decision in ("approved", "approved_for_session"):
        return NoticeCell("approved", f"Auto-review approved {subject}")
    why = f": {msg.rationale}" if msg.rationale else ""
    return NoticeCell("denied", f"Auto-review denied {subject}{why}")
