"""A command the model ran: `Running` with a spinner, then `Ran` with output, exit code and time."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from codex_core.frontend.commands import display_command
from codex_tui.app.formatting import excerpt, format_duration, truncate_line

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
MAX_COMMAND_LINES = 4
LIVE_LINES = 3
"""Lines of a running command's newest output shown under it."""
LIVE_BUFFER_CHARS = 4096


class ExecCell(Static):
    """One command; `finish()` turns the running state into the result."""

    def __init__(self, call_id: str, command: list[str]) -> None:
        self.call_id = call_id
        self.command = display_command(command)
        self.exit_code: int | None = None
        self.output = ""
        self.duration_ms = 0
        self.timed_out = False
        self.interrupted = False
        self.frame = 0
        self.live = ""
        super().__init__(self._content(), classes="-running")

    @property
    def running(self) -> bool:
        """Whether the command has not finished yet."""
        return self.exit_code is None

    def tick(self, frame: int) -> None:
        """Show spinner frame `frame` while running."""
        if self.running and frame != self.frame:
            self.frame = frame
            self.update(self._content())

    def append_output(self, chunk: str) -> None:
        """Show the newest lines of a running command's output (display only, bounded)."""
        if not self.running or not chunk:
            return
        self.live = (self.live + chunk)[-LIVE_BUFFER_CHARS:]
        self.update(self._content())

    def finish(
        self,
        exit_code: int,
        output: str,
        duration_ms: int,
        timed_out: bool,
        interrupted: bool = False,
    ) -> None:
        """Show the result."""
        self.exit_code = exit_code
        self.output = output
        self.duration_ms = duration_ms
        self.timed_out = timed_out
        self.interrupted = interrupted
        self.remove_class("-running")
        self.add_class("-ok" if exit_code == 0 else "-failed")
        self.update(self._content())

    def _content(self) -> Content:
        lines = self.command.split("\n")
        first, rest = lines[0], lines[1:MAX_COMMAND_LINES]
        if self.running:
            parts: list[str | tuple[str, str]] = [
                (f"{SPINNER[self.frame % len(SPINNER)]} ", "$accent"),
                ("Running ", "bold"),
            ]
        else:
            colour = "$success" if self.exit_code == 0 else "$error"
            parts = [("● ", colour), ("Ran ", "bold")]
        parts.append(truncate_line(first, 200))
        for line in rest:
            parts += ["\n", ("  │ ", "$text-muted"), truncate_line(line, 200)]
        if len(lines) > MAX_COMMAND_LINES:
            parts += [
                "\n",
                ("  │ ", "$text-muted"),
                (f"… +{len(lines) - MAX_COMMAND_LINES} lines", "$text-muted"),
            ]
        if self.running:
            live = [line for line in self.live.splitlines() if line.strip()][-LIVE_LINES:]
            for index, line in enumerate(live):
                gutter = "  └ " if index == 0 else "    "
                parts += ["\n", (gutter, "$text-muted"), (truncate_line(line, 200), "$text-muted")]
            return Content.assemble(*parts)
        out = excerpt(self.output)
        gutter = "  └ "
        for line in out.head:
            parts += ["\n", (gutter, "$text-muted"), (line, "$text-muted")]
            gutter = "    "
        if out.omitted:
            parts += ["\n", (gutter, "$text-muted"), (f"… +{out.omitted} lines", "$text-muted")]
            gutter = "    "
        for line in out.tail:
            parts += ["\n", (gutter, "$text-muted"), (line, "$text-muted")]
        status = f"exit {self.exit_code}"
        if self.timed_out:
            status = "timed out"
        elif self.interrupted:
            status = "interrupted"
        mark, colour = ("✓", "$success") if self.exit_code == 0 else ("✗", "$error")
        parts += [
            "\n",
            (gutter, "$text-muted"),
            (f"{mark} ", colour),
            (f"{status} · {format_duration(self.duration_ms)}", "$text-muted"),
        ]
        return Content.assemble(*parts)
