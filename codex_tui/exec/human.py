"""`codex exec` human output: a header, then prompt, commands, edits and answer as they happen.

Progress goes to stderr; the final answer also goes to stdout when stdout is not a terminal,
so `codex exec "…" > answer.md` captures just the answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO, assert_never

from codex_core import __version__
from codex_core import protocol as ev
from codex_core.config import Config
from codex_core.frontend.commands import describe_interaction, display_command
from codex_core.terminal_text import printable, printable_event

MAX_OUTPUT_LINES = 20
_STYLES = {
    "bold": "1",
    "dim": "2",
    "red": "31",
    "green": "32",
    "magenta": "35",
    "cyan": "36",
    "yellow": "33",
}


class HumanProcessor:
    """Prints events for a person reading a terminal or a CI log."""

    def __init__(
        self, config: Config, prompt: str, *, out: TextIO, err: TextIO, color: bool
    ) -> None:
        self.config = config
        self.prompt = prompt
        self.out = out
        self.err = err
        self.color = color
        self.failed = False
        self.last_message: str | None = None
        self._total_tokens = 0

    def _style(self, text: str, *styles: str) -> str:
        if not self.color or not styles:
            return text
        codes = ";".join(_STYLES[s] for s in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def _print(self, text: str = "") -> None:
        self.err.write(text + "\n")
        self.err.flush()

    def header(self, session_id: str = "") -> None:
        """The session summary printed before anything else (Codex 0.169's facts)."""
        c = self.config
        self._print(self._style(f"codex v{__version__}", "bold"))
        self._print("--------")
        rows = [
            ("workdir", str(c.cwd)),
            ("model", c.model),
            ("provider", c.model_provider_id),
            ("approval", c.approval_policy),
            ("sandbox", c.sandbox_policy.mode),
            ("reasoning effort", c.model_reasoning_effort or "none"),
            ("reasoning summaries", c.model_reasoning_summary or "none"),
            ("session id", session_id),
        ]
        for key, value in rows:
            self._print(f"{self._style(key + ':', 'bold')} {printable(value)}")
        self._print("--------")
        self._print(self._style("user", "cyan", "bold"))
        self._print(printable(self.prompt.rstrip("\n")))

    def handle(self, event: ev.Event) -> None:
        """Print one event (its text without the terminal controls it may carry)."""
        msg = printable_event(event.msg)
        match msg:
            case ev.AgentReasoningEvent():
                self._print()
                self._print(self._style("thinking", "magenta", "bold"))
                self._print(self._style(msg.text, "dim"))
            case ev.AgentMessageEvent():
                self.last_message = msg.message
                self._print()
                self._print(self._style("codex", "magenta", "bold"))
                self._print(msg.message)
            case ev.ExecCommandBeginEvent():
                shown = display_command(msg.command)
                self._print()
                self._print(
                    f"{self._style('exec', 'magenta', 'bold')} {self._style(shown, 'bold')} in {msg.cwd}"
                )
            case ev.ExecCommandEndEvent():
                self._exec_end(msg)
            case ev.TerminalInteractionEvent():
                line = describe_interaction(msg.process_id, msg.stdin)
                self._print(f"{self._style('stdin', 'magenta', 'bold')} {line}")
            case ev.PatchApplyBeginEvent():
                self._print()
                self._print(self._style("apply_patch", "magenta", "bold"))
                for path, change in msg.changes.items():
                    self._print(f"  {change.type[0].upper()} {self._relative(path)}")
            case ev.PatchApplyEndEvent():
                if msg.success:
                    self._print(self._style("patch applied", "green"))
                else:
                    self._print(self._style(f"patch failed: {msg.stderr.strip()}", "red"))
            case ev.PlanUpdateEvent():
                self._print()
                self._print(self._style("plan", "magenta", "bold"))
                marks = {"completed": "[x]", "in_progress": "[~]", "pending": "[ ]"}
                for item in msg.plan:
                    self._print(f"  {marks[item.status]} {item.step}")
            case ev.TokenCountEvent():
                if msg.info is not None:
                    # As 0.169 counts them: cached input is not counted again.
                    usage = msg.info.total_token_usage
                    self._total_tokens = (
                        usage.input_tokens - usage.cached_input_tokens + usage.output_tokens
                    )
            case ev.StreamErrorEvent() | ev.WarningEvent():
                self._print(self._style(msg.message, "yellow"))
            case ev.ErrorEvent():
                self.failed = True
                self._print(self._style(f"ERROR: {msg.message}", "red", "bold"))
            case ev.TurnAbortedEvent():
                self.failed = True
                self._print(self._style("turn interrupted", "red"))
            case ev.TaskCompleteEvent():
                self._finish()
            case ev.SessionConfiguredEvent():
                self.header(msg.session_id)
            case ev.McpToolCallBeginEvent():
                # As 0.169: `mcp: <server>/<tool> started`, then `(completed)` or `(failed)`.
                self._print(
                    f"{self._style('mcp:', 'magenta', 'bold')} {msg.server}/{msg.tool} started"
                )
            case ev.McpToolCallEndEvent():
                outcome = "completed" if msg.is_success else "failed"
                self._print(
                    f"{self._style('mcp:', 'magenta', 'bold')} {msg.server}/{msg.tool} ({outcome})"
                )
                if msg.error:
                    self._print(self._style(msg.error, "red"))
            case ev.WebSearchEndEvent():
                query = msg.query or ev.web_search_query(msg.action)
                self._print(f"{self._style('web search:', 'magenta', 'bold')} {query}")
            case ev.BackgroundEvent():
                self._print(self._style(msg.message, "dim"))
            case (
                ev.TaskStartedEvent()
                | ev.UserMessageEvent()
                | ev.TurnDiffEvent()
                | ev.WebSearchBeginEvent()  # the query is known only when the search ends
            ):
                pass  # bookkeeping a headless run has no use for
            case ev.HookStartedEvent():
                self._print(f"hook: {msg.run.event_name}")
            case ev.HookCompletedEvent():
                self._print(f"hook: {msg.run.event_name} {msg.run.status.capitalize()}")
            case ev.ApprovalDecisionEvent(reviewer="auto_review"):
                self._auto_reviewed(msg)
            case _ if isinstance(msg, ev.DeltaEvent | ev.ApprovalEvent | ev.OpReplyEvent):
                # Deliberately not shown: deltas (the whole item follows), approvals (exec
                # never asks), and replies to ops exec never sends.
                pass
            case _ as unreachable:
                assert_never(unreachable)

    def _auto_reviewed(self, msg: ev.ApprovalDecisionEvent) -> None:
        """`--approve-for-me`: what the reviewer decided in the user's place."""
        what = display_command(msg.command) if msg.command else "the edits"
        if msg.decision == "approved":
            self._print(self._style(f"auto-review approved {what}", "dim"))
            return
        self._print()
        self._print(f"{self._style('auto-review denied', 'red', 'bold')} {what}")
        if msg.rationale:
            self._print(self._style(msg.rationale, "dim"))

    def _relative(self, path: str) -> str:
        try:
            return str(Path(path).relative_to(self.config.cwd))
        except ValueError:
            return path

    def _exec_end(self, msg: ev.ExecCommandEndEvent) -> None:
        seconds = msg.duration_ms / 1000
        took = f"{msg.duration_ms}ms" if msg.duration_ms < 1000 else f"{seconds:.2f}s"
        if msg.exit_code == 0:
            self._print(self._style(f"succeeded in {took}:", "green"))
        elif msg.timed_out:
            self._print(self._style(f"timed out after {took}:", "red"))
        elif msg.interrupted:
            self._print(self._style(f"interrupted after {took}:", "red"))
        else:
            self._print(self._style(f"exited {msg.exit_code} in {took}:", "red"))
        lines = msg.aggregated_output.splitlines()
        for line in lines[:MAX_OUTPUT_LINES]:
            self._print(self._style(line, "dim"))
        if len(lines) > MAX_OUTPUT_LINES:
            self._print(self._style(f"… +{len(lines) - MAX_OUTPUT_LINES} lines", "dim"))

    def _finish(self) -> None:
        if self._total_tokens:
            self._print()
            self._print(self._style("tokens used", "magenta", "bold"))
            self._print(f"{self._total_tokens:,}")
        if self.last_message is not None and not self.out.isatty():
            self.out.write(self.last_message.rstrip("\n") + "\n")
            self.out.flush()
