"""The multiline input: Enter sends, Shift+Enter or Ctrl+J adds a line, Up/Down walk history."""

from __future__ import annotations

import re
from pathlib import Path

from textual import events
from textual.message import Message
from textual.widgets import TextArea

from codex_tui.app import pasted_image
from codex_tui.app.history import ComposerHistory, Fetch, Show, Step
from codex_tui.app.widgets.paint_now import paint_now

LARGE_PASTE_CHARS = 1000
"""Pastes longer than this show as a placeholder and are expanded, intact, when sent."""
NAV_KEYS = ("up", "down", "tab", "enter", "escape")
PLACEHOLDER = re.compile(r"\[Pasted text #(\d+): [\d,]+ chars\]")


class Composer(TextArea):
    """Where the user types; posts `Submitted` and `HistoryRequested` upwards."""

    class Submitted(Message):
        """The user pressed Enter with this text (pasted blocks expanded) and these images."""

        def __init__(self, text: str, images: tuple[str, ...] = (), queue: bool = False) -> None:
            super().__init__()
            self.text = text
            self.images = images
            self.queue = queue
            """Tab rather than Enter: wait for the running turn to end."""

    class NavKey(Message):
        """A navigation key (up, down, tab, enter, escape) while the screen asked for them."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    class ScrollKey(Message):
        """Home or End on an empty composer: they move through the conversation instead."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    class HistoryRequested(Message):
        """Up reached a persistent history entry that must be fetched from the core."""

        def __init__(self, offset: int, log_id: int) -> None:
            super().__init__()
            self.offset = offset
            self.log_id = log_id

    def __init__(self) -> None:
        super().__init__(
            id="composer",
            soft_wrap=True,
            show_line_numbers=False,
            tab_behavior="focus",
            compact=True,
            placeholder="Ask Codex to do anything",
        )
        self.past = ComposerHistory()
        self.pastes: dict[int, str] = {}
        self.images: dict[int, str] = {}
        """Attached image files by number (`[Image #N]` in the text), paths as pasted."""
        self.workspace = Path(".")
        """Set by the screen: where relative pasted paths are looked up."""
        self.capture_keys = False
        """Set by the screen while a popup or a selection wants the navigation keys."""
        self.queue_on_tab = False
        """Set by the screen while a turn runs: Tab queues the message for after it."""

    def clear_input(self) -> None:
        """Empty the composer and forget pasted blocks."""
        self.clear()
        self.pastes.clear()
        self.images.clear()
        self.past.reset()

    def history_entry(self, offset: int, log_id: int, entry: str | None) -> None:
        """A persistent history entry arrived from the core."""
        self._apply(self.past.on_entry(offset, log_id, entry))

    def expanded_text(self) -> str:
        """The text with pasted placeholders replaced by what was pasted."""

        def expand(match: re.Match[str]) -> str:
            return self.pastes.get(int(match.group(1)), match.group(0))

        return PLACEHOLDER.sub(expand, self.text)

    def attached_images(self) -> tuple[str, ...]:
        """The attached images whose `[Image #N]` is still in the text, in number order."""
        kept = pasted_image.numbers_in(self.text)
        return tuple(path for number, path in sorted(self.images.items()) if number in kept)

    def attach_image(self, path: str) -> None:
        """Attach an image file and put its `[Image #N]` at the cursor."""
        number = max(self.images, default=0) + 1
        self.images[number] = path
        self.insert(pasted_image.placeholder(number) + " ")

    async def _on_idle(self, event: events.Idle) -> None:
        """What changed (a key's echo) is drawn now, not behind the screen's next frame and
        the streamed answer's work in it (`paint_now`); Textual's own idle step follows."""
        paint_now(self)

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        if self.capture_keys and key in NAV_KEYS:
            self._stop(event)
            self.post_message(self.NavKey(key))
        elif key in ("home", "end") and not self.text:
            self._stop(event)
            self.post_message(self.ScrollKey(key))
        elif key == "enter":
            self._stop(event)
            self._submit()
        elif key == "tab" and self.queue_on_tab:
            self._stop(event)
            self._submit(queue=True)
        elif key in ("shift+enter", "ctrl+j", "alt+enter"):
            self._stop(event)
            self.insert("\n")
        elif key == "up" and self.cursor_location[0] == 0 and (not self.text or self.past.browsing):
            self._stop(event)
            self._apply(self.past.previous(self.text))
        elif (
            key == "down"
            and self.past.browsing
            and self.cursor_location[0] == self.document.line_count - 1
        ):
            self._stop(event)
            self._apply(self.past.next())
        else:
            await super()._on_key(event)

    async def _on_paste(self, event: events.Paste) -> None:
        text = event.text.replace("\r\n", "\n").replace("\r", "\n")
        image = pasted_image.image_path(text, self.workspace)
        if image is not None:
            self._stop(event)
            self.attach_image(image)
            return
        if len(text) <= LARGE_PASTE_CHARS:
            self._stop(event)
            self.insert(text)
            return
        self._stop(event)
        number = len(self.pastes) + 1
        self.pastes[number] = text
        self.insert(f"[Pasted text #{number}: {len(text):,} chars]")

    def token_at_cursor(self) -> tuple[int, str]:
        """The whitespace-free word ending at the cursor on its line: (start column, word)."""
        row, col = self.cursor_location
        line = self.document.get_line(row)[:col]
        start = max(line.rfind(" "), line.rfind("\t")) + 1
        return start, line[start:]

    def replace_token(self, start: int, text: str) -> None:
        """Replace the word ending at the cursor (from column `start`) with `text`."""
        row, col = self.cursor_location
        self.replace(text, (row, start), (row, col))

    def _submit(self, queue: bool = False) -> None:
        text, images = self.expanded_text(), self.attached_images()
        if not text.strip() and not images:
            return
        self.past.record(text)
        self.clear()
        self.pastes.clear()
        self.images.clear()
        self.post_message(self.Submitted(text, images, queue))

    def _apply(self, step: Step) -> None:
        match step:
            case Show(text=text):
                self.load_text(text)
                self.move_cursor(self.document.end)
            case Fetch(offset=offset, log_id=log_id):
                self.post_message(self.HistoryRequested(offset, log_id))
            case None:
                pass

    @staticmethod
    def _stop(event: events.Event) -> None:
        event.stop()
        event.prevent_default()
