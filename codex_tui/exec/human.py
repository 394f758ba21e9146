"""`codex exec` human output: a header, then prompt, commands, edits and answer as they happen.

Progress goes to stderr; the final answer also goes to stdout when stdout is not a terminal,
so `codex exec "…" > answer.md` captures just the answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO, assert_never

from codex_core import __version__, items
from codex_core.config import Config
from codex_core.frontend.commands import describe_interaction, display_command
from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_core.terminal_text import printable

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
    """Renders the item projection of a run for a person reading a terminal or a CI log."""

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
        self._projection = items.Projection()
        self._asked: dict[str, k.ThreadItem] = {}
        """Calls started by a request for approval, shown once allowed (exec never asks)."""

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

    def handle(self, event: items.Event) -> list[n.Notice]:
        """Print what one session event adds (text without the terminal controls it carries);
        returns its notices."""
        notices = self._projection.feed(event)
        for notice in notices:
            self._render(notice)
        return notices

    def _render(self, notice: n.Notice) -> None:
        match notice:
            case n.ItemStarted():
                self._started(notice)
            case n.ItemCompleted():
                self._completed(notice)
            case n.PlanUpdated():
                self._print()
                self._print(self._style("plan", "magenta", "bold"))
                marks = {"completed": "[x]", "in_progress": "[~]", "pending": "[ ]"}
                for step in notice.plan:
                    self._print(f"  {marks[step.status]} {printable(step.step)}")
            case n.TokenUsage():
                # As 0.169 counts them: cached input is not counted again.
                usage = notice.info.total_token_usage
                self._total_tokens = (
                    usage.input_tokens - usage.cached_input_tokens + usage.output_tokens
                )
            case n.StreamRetry() | n.TurnWarning():
                self._print(self._style(printable(notice.message), "yellow"))
            case n.TurnError():
                self.failed = True
                self._print(self._style(f"ERROR: {printable(notice.message)}", "red", "bold"))
            case n.TurnEnded():
                if notice.status == "interrupted":
                    self.failed = True
                    self._print(self._style("turn interrupted", "red"))
                else:
                    self._finish()
            case n.ThreadStarted():
                self.header(notice.thread_id)
            case n.TerminalInteraction():
                line = describe_interaction(printable(notice.process_id), printable(notice.stdin))
                self._print(f"{self._style('stdin', 'magenta', 'bold')} {line}")
            case n.BackgroundMessage():
                self._print(self._style(printable(notice.message), "dim"))
            case n.HookRunUpdated():
                name = printable(notice.run.event_name)
                if notice.done:
                    self._print(f"hook: {name} {printable(notice.run.status).capitalize()}")
                else:
                    self._print(f"hook: {name}")
            case n.ApprovalDecided():
                if notice.reviewer == "auto_review":
                    self._auto_reviewed(notice)
                elif notice.item_id in self._asked and notice.decision.startswith("approved"):
                    self._running(self._asked.pop(notice.item_id))
            case (
                n.TurnStarted()
                | n.DiffUpdated()
                | n.AgentMessageDelta()
                | n.ReasoningPartAdded()
                | n.ReasoningDelta()
                | n.CommandOutputDelta()
                | n.CommandApprovalRequested()
                | n.PatchApprovalRequested()
                | n.ElicitationRequested()
                | n.SessionEnded()
            ):
                # Deliberately not shown: bookkeeping, deltas (the whole item follows),
                # approval requests (exec never asks; an allowed call shows as it runs) and
                # MCP servers' questions (declined by the run loop).
                pass
            case _ as unreachable:
                assert_never(unreachable)

    def _started(self, started: n.ItemStarted) -> None:
        """A call as it begins; one asked about first shows once it is allowed, one whose
        end came first (replays, the reviewer's refusals) shows only its end."""
        if started.by == "approval":
            self._asked[started.item.id] = started.item
        elif started.by == "begin":
            self._running(started.item)

    def _running(self, item: k.ThreadItem) -> None:
        match item:
            case k.CommandExecutionItem():
                shown = printable(display_command(item.command))
                self._print()
                self._print(
                    f"{self._style('exec', 'magenta', 'bold')} {self._style(shown, 'bold')}"
                    f" in {printable(item.cwd)}"
                )
            case k.FileChangeItem():
                self._print()
                self._print(self._style("apply_patch", "magenta", "bold"))
                for path, change in item.changes.items():
                    self._print(f"  {change.type[0].upper()} {printable(self._relative(path))}")
            case k.McpToolCallItem():
                # As 0.169: `mcp: <server>/<tool> started`, then `(completed)` or `(failed)`.
                call = printable(f"{item.server}/{item.tool}")
                self._print(f"{self._style('mcp:', 'magenta', 'bold')} {call} started")
            case (
                k.UserMessageItem()
                | k.AgentMessageItem()
                | k.ReasoningItem()
                | k.WebSearchItem()  # the query is known only when the search ends
                | k.ContextCompactionItem()
            ):
                pass  # shown whole when completed, or (the prompt, a compaction) not at all
            case _ as unreachable:
                assert_never(unreachable)

    def _completed(self, done: n.ItemCompleted) -> None:
        """An item that ended on its own; one its turn, a refusal or a reused id closed
        printed its last line already (or the turn's end says it)."""
        item = done.item
        self._asked.pop(item.id, None)
        if done.cause != "ended":
            return
        match item:
            case k.ReasoningItem():
                self._print()
                self._print(self._style("thinking", "magenta", "bold"))
                self._print(self._style(printable(item.text), "dim"))
            case k.AgentMessageItem():
                self.last_message = printable(item.text)
                self._print()
                self._print(self._style("codex", "magenta", "bold"))
                self._print(self.last_message)
            case k.CommandExecutionItem():
                self._exec_end(item)
            case k.FileChangeItem():
                if item.status == "completed":
                    self._print(self._style("patch applied", "green"))
                else:
                    failure = printable(item.stderr.strip())
                    self._print(self._style(f"patch failed: {failure}", "red"))
            case k.McpToolCallItem():
                call = printable(f"{item.server}/{item.tool}")
                self._print(f"{self._style('mcp:', 'magenta', 'bold')} {call} ({item.status})")
                if item.error:
                    self._print(self._style(printable(item.error), "red"))
            case k.WebSearchItem():
                query = printable(item.query)
                self._print(f"{self._style('web search:', 'magenta', 'bold')} {query}")
            case k.UserMessageItem() | k.ContextCompactionItem():
                pass  # the prompt is in the header; a compaction shows nothing
            case _ as unreachable:
                assert_never(unreachable)

    def _auto_reviewed(self, decided: n.ApprovalDecided) -> None:
        """`--approve-for-me`: what the reviewer decided in the user's place."""
        what = printable(display_command(decided.command)) if decided.command else "the edits"
        if decided.decision == "approved":
            self._print(self._style(f"auto-review approved {what}", "dim"))
            return
        self._print()
        self._print(f"{self._style('auto-review denied', 'red', 'bold')} {what}")
        if decided.rationale:
            self._print(self._style(printable(decided.rationale), "dim"))

    def _relative(self, path: str) -> str:
        try:
            return str(Path(path).relative_to(self.config.cwd))
        except ValueError:
            return path

    def _exec_end(self, item: k.CommandExecutionItem) -> None:
        duration_ms = item.duration_ms or 0
        seconds = duration_ms / 1000
        took = f"{duration_ms}ms" if duration_ms < 1000 else f"{seconds:.2f}s"
        if item.exit_code == 0:
            self._print(self._style(f"succeeded in {took}:", "green"))
        elif item.timed_out:
            self._print(self._style(f"timed out after {took}:", "red"))
        elif item.interrupted:
            self._print(self._style(f"interrupted after {took}:", "red"))
        else:
            self._print(self._style(f"exited {item.exit_code} in {took}:", "red"))
        lines = printable(item.aggregated_output).splitlines()
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
