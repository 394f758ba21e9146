"""The whole session as text for the Ctrl+T overlay: full answers, command output and diffs."""

from __future__ import annotations

import json

from textual.content import Content

from codex_core.frontend.commands import display_command
from codex_core.protocol import (
    AgentMessageEvent,
    AgentReasoningEvent,
    BackgroundEvent,
    ErrorEvent,
    EventMsg,
    ExecCommandEndEvent,
    McpToolCallEndEvent,
    PatchApplyBeginEvent,
    PatchApplyEndEvent,
    TurnAbortedEvent,
    UserMessageEvent,
    WarningEvent,
)
from codex_core.protocol.common import AddChange, DeleteChange, UpdateChange
from codex_tui.app.git_diff import diff_lines


class TranscriptLog:
    """Every event worth reading again, kept whole (the screen drops old cells; this does not)."""

    def __init__(self) -> None:
        self.lines: list[Content] = []

    def record(self, msg: EventMsg) -> None:
        """Append what `msg` adds to the conversation, if anything."""
        match msg:
            case UserMessageEvent():
                self._block("› ", "bold $accent", msg.message)
            case AgentMessageEvent():
                self._block("• ", "$text", msg.message)
            case AgentReasoningEvent():
                self._block("• ", "$text-muted italic", msg.text, style="$text-muted italic")
            case ExecCommandEndEvent():
                command = display_command(msg.command) if msg.command else "command"
                self._block("$ ", "bold $accent", command)
                output = msg.aggregated_output or (msg.stdout + msg.stderr)
                self.lines += [
                    Content.styled("  " + line, "$text-muted")
                    for line in output.rstrip("\n").splitlines()
                ]
                state = "$success" if msg.exit_code == 0 else "$error"
                self.lines.append(Content.styled(f"  exit code {msg.exit_code}", state))
            case PatchApplyBeginEvent() | PatchApplyEndEvent():
                for path, change in (msg.changes or {}).items():  # an end has them on replay
                    self._patch(path, change)
            case McpToolCallEndEvent():
                title = f"{msg.server}.{msg.tool}"
                self._block("• ", "bold", f"Called {title}")
                body = msg.error or json.dumps(msg.tool_result, ensure_ascii=False, indent=1)
                self.lines += [
                    Content.styled("  " + line, "$text-muted") for line in str(body).splitlines()
                ]
            case ErrorEvent():
                self._block("■ ", "$error", msg.message, style="$error")
            case WarningEvent():
                self._block("⚠ ", "$warning", msg.message, style="$warning")
            case BackgroundEvent():
                self._block("• ", "$text-muted", msg.message, style="$text-muted")
            case TurnAbortedEvent():
                self._block("■ ", "$error", "Interrupted", style="$error")
            case _:
                pass

    def _block(self, mark: str, mark_style: str, text: str, style: str = "") -> None:
        if self.lines:
            self.lines.append(Content(""))
        for i, line in enumerate(text.rstrip().splitlines() or [""]):
            lead = (mark, mark_style) if i == 0 else (" " * len(mark), "")
            self.lines.append(Content.assemble(lead, (line, style)))

    def _patch(self, path: str, change: AddChange | DeleteChange | UpdateChange) -> None:
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
