"""The whole session as text for the Ctrl+T overlay: full answers, command output and diffs."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import assert_never

from textual.content import Content

from codex_core.frontend.commands import display_command
from codex_core.items import client as c
from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_core.protocol.common import AddChange, DeleteChange, FileChange, UpdateChange
from codex_tui.app.git_diff import diff_lines

_PASSING = (n.AgentMessageDelta, n.ReasoningDelta, n.CommandOutputDelta)
"""The notices of a streaming answer or command: the whole item follows (checked first)."""


class TranscriptLog:
    """Every item worth reading again, kept whole (the screen drops old cells; this does not).

    Fed the notices the chat screen renders (`codex_core.items.client.ClientNotice`)."""

    def __init__(self) -> None:
        self.lines: list[Content] = []
        self._asked: dict[str, k.FileChangeItem] = {}
        """Patches started by a request for approval, shown once allowed."""

    def record(self, notice: c.ClientNotice) -> None:
        """Append what `notice` adds to the conversation, if anything."""
        if not isinstance(notice, _PASSING):
            self._render(notice)

    def _render(self, notice: c.ClientNotice) -> None:
        match notice:
            case n.ItemStarted(item=k.FileChangeItem() as patch):
                if notice.by == "approval":
                    self._asked[patch.id] = patch
                elif notice.by in ("begin", "end"):  # an end has the changes on replay
                    self._patch(patch.changes)
            case n.ApprovalDecided():
                asked = self._asked.pop(notice.item_id, None)
                if asked is not None and notice.decision.startswith("approved"):
                    self._patch(asked.changes)
            case n.ItemCompleted():
                self._asked.pop(notice.item.id, None)
                if notice.cause == "ended":
                    self._completed(notice.item)
            case n.TurnError():
                self._block("■ ", "$error", notice.message, style="$error")
            case n.TurnWarning():
                self._block("⚠ ", "$warning", notice.message, style="$warning")
            case n.BackgroundMessage():
                self._block("• ", "$text-muted", notice.message, style="$text-muted")
            case n.TurnEnded(status="interrupted"):
                self._block("■ ", "$error", "Interrupted", style="$error")
            case _:
                pass  # deltas (the whole item follows), bookkeeping, what the cells show alone,
                # replies to the screen's own ops

    def _completed(self, item: k.ThreadItem) -> None:
        match item:
            case k.UserMessageItem():
                self._block("› ", "bold $accent", item.text)
            case k.AgentMessageItem():
                self._block("• ", "$text", item.text)
            case k.ReasoningItem():
                self._block("• ", "$text-muted italic", item.text, style="$text-muted italic")
            case k.CommandExecutionItem():
                command = display_command(item.command) if item.command else "command"
                self._block("$ ", "bold $accent", command)
                output = item.aggregated_output or (item.stdout + item.stderr)
                self.lines += [
                    Content.styled("  " + line, "$text-muted")
                    for line in output.rstrip("\n").splitlines()
                ]
                state = "$success" if item.exit_code == 0 else "$error"
                self.lines.append(Content.styled(f"  exit code {item.exit_code}", state))
            case k.McpToolCallItem():
                self._block("• ", "bold", f"Called {item.server}.{item.tool}")
                body = item.error or json.dumps(item.result, ensure_ascii=False, indent=1)
                self.lines += [
                    Content.styled("  " + line, "$text-muted") for line in str(body).splitlines()
                ]
            case k.FileChangeItem() | k.WebSearchItem() | k.ContextCompactionItem():
                pass  # a patch shows as it begins; searches and compactions are not kept
            case _ as unreachable:
                assert_never(unreachable)

    def _block(self, mark: str, mark_style: str, text: str, style: str = "") -> None:
        if self.lines:
            self.lines.append(Content(""))
        for i, line in enumerate(text.rstrip().splitlines() or [""]):
            lead = (mark, mark_style) if i == 0 else (" " * len(mark), "")
            self.lines.append(Content.assemble(lead, (line, style)))

    def _patch(self, changes: Mapping[str, FileChange]) -> None:
        for path, change in changes.items():
            self._change(path, change)

    def _change(self, path: str, change: AddChange | DeleteChange | UpdateChange) -> None:
        match change:
            case AddChange():
                self._block("+ ", "$success", f"Added {path}")
                self.lines += [
                    Content.styled("  +" + line, "$success") for line in change.content.splitlines()
                ]
            case DeleteChange():
                self._block("- ", "$error", f"Deleted {path}")
            case UpdateChange():
                self._block("~ ", "$accent", f"Edited {path}")
                self.lines += [
                    Content.assemble("  ", line) for line in diff_lines(change.unified_diff)
                ]
