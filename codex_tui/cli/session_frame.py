"""The launch prompt's session painted on the first frame while Textual still loads.

A TUI launched with a prompt has its app-server child open the thread and start the turn
before the app is up (`early_turn`). The chat screen would show the session's header, the
prompt and the streaming answer only once Textual has loaded and mounted, most of a second
on a small machine. Instead the early turn's reader hands each message of the child to a
`SessionPainter`, which paints on the first frame what the chat screen is about to show,
in its layout and colours: the header box, the prompt's cell, the answer as it streams,
the model at the footer's right. Textual then redraws the whole screen, the same things in
the same places (tests/e2e/test_tui_session_frame.py compares them cell by cell).

The frame paints only what it can draw exactly as the app will, and stops at the first
thing it cannot: a prompt or answer that is not one paragraph of plain ASCII words
(Markdown would style it), a header or answer wider or taller than the screen, a second
message, any notification that would put a cell the frame does not draw (reasoning, a
command, a warning…). What it has painted stays until Textual repaints: it is only ever
something the app shows at that point of the session. Everything painted comes from the
child and the model (hostile text): only printable ASCII is ever written.

Standard library only: this runs on a thread while the main one imports Textual.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from codex_tui.app.chat_words import HINTS, plain_paragraph
from codex_tui.cli.first_frame import BACKGROUND, footer_row

if TYPE_CHECKING:
    from codex_tui.cli.first_frame import FirstFrame

# The chat screen's colours (theme textual-dark) as Textual writes them on a 256-colour
# terminal.
_BORDER = "\x1b[0;38;5;23;48;5;233m"
_MUTED = "\x1b[0;38;5;231;48;5;233m"
_TITLE = "\x1b[0;1;38;5;253;48;5;233m"
_VALUE = "\x1b[0;38;5;253;48;5;233m"
_COMMAND = "\x1b[0;38;5;214;48;5;233m"
_USER_MARK = "\x1b[0;1;38;5;214;48;5;234m"
_USER_TEXT = "\x1b[0;38;5;253;48;5;234m"

SANDBOX_MODES = {
    "readOnly": "read-only",
    "workspaceWrite": "workspace-write",
    "dangerFullAccess": "danger-full-access",
}
"""The header's sandbox line for the wire's sandbox types (`wire_values.wire_sandbox`)."""
APPROVALS = frozenset({"untrusted", "on-failure", "on-request", "never"})
"""Approval policies the header shows as the wire names them (`wire_values.wire_approval`)."""
QUIET = frozenset(
    {
        "thread/started",
        "thread/status/changed",
        "turn/started",
        "thread/tokenUsage/updated",
        "account/rateLimits/updated",
    }
)
"""Notifications that put no cell above the answer."""
STATUS_ROWS = 5
"""Rows under the transcript: a status line, the composer's three, the footer."""


def wrap_words(text: str, width: int) -> list[str] | None:
    """`text` cut into lines of at most `width` cells at spaces, as Rich wraps it (a word
    goes on the next line when it does not fit); None when a word alone is wider, or two
    spaces meet (Rich keeps both: not drawn here)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if not word or len(word) > width:
            return None
        if line and len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            if line:
                lines.append(line)
            line = word
    return [*lines, line] if line else lines


def header_lines(
    version: str, model: str, directory: str, approval: str, sandbox: str
) -> list[list[tuple[str, str]]]:
    """The header box's content lines as (style, text) runs (`header_cell.HeaderCell`)."""
    lines: list[list[tuple[str, str]]] = [
        [(_MUTED, ">_ "), (_TITLE, "Codex"), (_MUTED, f" (v{version})")],
        [],
    ]
    for label, value in (
        ("model", model),
        ("directory", directory),
        ("approval", approval),
        ("sandbox", sandbox),
    ):
        lines.append([(_MUTED, f"{label + ':':<11}"), (_VALUE, value)])
    lines.append([])
    for command, hint in HINTS:
        lines.append([(_COMMAND, f"{command:<10}"), (_MUTED, hint)])
    return lines


def _simple(text: str) -> bool:
    return text.isascii() and text.isprintable()


class SessionPainter:
    """Follows the child's messages after the thread's answer and paints the session on
    `frame` (a `early_turn.Watcher`)."""

    def __init__(
        self, frame: FirstFrame, version: str, prompt: str, shorten: Callable[[str], str]
    ) -> None:
        self.frame = frame
        self.version = version
        self.prompt = prompt.rstrip()
        self.shorten = shorten
        """`formatting.shorten_path`: the home directory as `~`."""
        self.header: list[list[tuple[str, str]]] | None = None
        self.model = ""
        """The footer's right side: the model, and its reasoning effort when one is set."""
        self.answer_id: str | None = None
        self.answer = ""
        self.painted: list[str] | None = None
        """The answer's lines on the screen, once the header is (None before)."""

    def opened(self, result: dict[str, Any]) -> bool:
        """The thread's answer: paint the header and the prompt; False: paint nothing."""
        thread = result.get("thread")
        if not isinstance(thread, dict) or thread.get("turns"):
            return False
        model = result.get("model") or thread.get("model") or ""
        cwd = result.get("cwd") or thread.get("cwd") or "."
        approval = result.get("approvalPolicy")
        sandbox = result.get("sandbox")
        mode = SANDBOX_MODES.get(str(sandbox.get("type"))) if isinstance(sandbox, dict) else None
        if not isinstance(approval, str) or approval not in APPROVALS or mode is None:
            return False  # granular approvals, other sandboxes: not drawn here
        values = [model, cwd, self.prompt, self.version]
        if not all(isinstance(v, str) and v and _simple(v) for v in values):
            return False
        if plain_paragraph(self.prompt) != self.prompt:
            return False
        effort = result.get("reasoningEffort")  # the footer's `model effort`, as the app's
        if effort is not None and not (isinstance(effort, str) and effort and _simple(effort)):
            return False
        self.model = f"{model} {effort}" if effort else model
        self.header = header_lines(self.version, model, self.shorten(cwd), approval, mode)
        return self._paint()

    def message(self, message: dict[str, Any]) -> bool:
        """One message of the child after the thread's answer; False: paint no more."""
        method = message.get("method")
        if method is None:
            return "id" in message and "result" in message  # an answer to the early requests
        params = message.get("params")
        if not isinstance(params, dict):
            return False
        if method in QUIET:
            return True
        item = params.get("item")
        kind = item.get("type") if isinstance(item, dict) else None
        if method in ("item/started", "item/completed") and kind == "userMessage":
            return True
        if method == "item/started" and kind == "agentMessage" and self.answer_id is None:
            self.answer_id = item.get("id") if isinstance(item, dict) else None
            return isinstance(self.answer_id, str)
        if method == "item/agentMessage/delta" and params.get("itemId") == self.answer_id:
            delta = params.get("delta")
            if not isinstance(delta, str):
                return False
            self.answer += delta
            return self._paint()
        if method == "item/completed" and kind == "agentMessage" and isinstance(item, dict):
            if item.get("id") != self.answer_id or not isinstance(item.get("text"), str):
                return False
            self.answer = item["text"]
            self._paint()
            return False  # the turn may go on with anything: paint no more
        return False

    def _paint(self) -> bool:
        """Paint what changed; False when it cannot be drawn as the app will (or the frame
        no longer paints)."""
        assert self.header is not None
        columns, lines = self.frame.size
        inner = max(len("".join(text for _, text in line)) for line in self.header) + 2
        user_width = columns - 2
        answer_lines: list[str] = []
        if self.answer:
            plain = plain_paragraph(self.answer)
            wrapped = wrap_words(plain, columns - 4) if plain and plain.isascii() else None
            if not wrapped:
                return False
            answer_lines = wrapped
        top = 1
        header_rows = len(self.header) + 2
        user_row = top + header_rows + 1
        answer_row = user_row + 2
        bottom = answer_row + len(answer_lines)
        if inner + 4 > columns or len(self.prompt) + 4 > user_width or bottom > lines - STATUS_ROWS:
            return False
        parts: list[str] = []
        if self.painted is None:  # first paint: the header, the prompt, the footer's model
            parts.append(self._header(top, inner))
            parts.append(
                f"\x1b[{user_row + 1};2H{_USER_MARK}› {_USER_TEXT}{self.prompt}"
                + " " * (user_width - 2 - len(self.prompt))
            )
            parts.append(f"\x1b[{lines};1H{footer_row(columns, self.model)}")
        for index, line in enumerate(answer_lines):
            if self.painted is not None and self.painted[index : index + 1] == [line]:
                continue
            lead = "• " if index == 0 else "  "
            parts.append(f"\x1b[{answer_row + index + 1};2H{_VALUE}{lead}{line:<{columns - 4}}")
        for index in range(len(answer_lines), len(self.painted or ())):  # a shorter final text
            parts.append(f"\x1b[{answer_row + index + 1};2H{BACKGROUND}{' ' * (columns - 2)}")
        self.painted = answer_lines
        return not parts or self.frame.paint_rows("".join(parts) + "\x1b[0m")

    def _header(self, top: int, inner: int) -> str:
        assert self.header is not None
        parts = [f"\x1b[{top + 1};2H{_BORDER}╭{'─' * inner}╮"]
        for index, line in enumerate(self.header):
            width = sum(len(text) for _, text in line)
            runs = "".join(style + text for style, text in line)
            padding = " " * (inner - 2 - width)
            parts.append(
                f"\x1b[{top + index + 2};2H{_BORDER}│{BACKGROUND} {runs}{BACKGROUND}{padding} "
                f"{_BORDER}│"
            )
        parts.append(f"\x1b[{top + len(self.header) + 2};2H{_BORDER}╰{'─' * inner}╯")
        return "".join(parts)
