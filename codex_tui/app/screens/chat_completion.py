"""Drives the completion popup from the composer: `/` commands, `@` file paths, `$` skills."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from codex_core.terminal_text import printable
from codex_tui.app import slash_commands
from codex_tui.app.file_search import FileIndex
from codex_tui.app.skill_index import SkillIndex
from codex_tui.app.widgets.completion_popup import CompletionPopup
from codex_tui.app.widgets.composer import Composer

FILE_ROWS = 8
WALK_POLL_SECONDS = 0.02


class CompletionHost(Protocol):
    """What the completion popup's driver needs from the chat screen."""

    @property
    def composer(self) -> Composer:
        """The composer being completed."""
        ...

    @property
    def popup(self) -> CompletionPopup:
        """The popup above the composer."""
        ...

    @property
    def workspace(self) -> Path:
        """The session's working directory (what `@` searches)."""
        ...

    @property
    def codex_home(self) -> str | None:
        """CODEX_HOME (where the user's skills live)."""
        ...

    @property
    def backtracking(self) -> bool:
        """Whether a backtrack selection holds the navigation keys."""
        ...

    def set_timer(self, delay: float, callback: Callable[[], None]) -> object:
        """Call `callback` after `delay` seconds."""
        ...

    def run_worker(self, work: Callable[[], None], *, group: str, thread: bool) -> object:
        """Run blocking `work` in a worker thread."""
        ...

    async def submit_text(self, text: str) -> None:
        """Do what Enter does with `text`."""
        ...


class Completion:
    """Decides what the popup shows after each edit, and what its keys do."""

    def __init__(self, host: CompletionHost) -> None:
        self.host = host
        self.files: FileIndex | None = None
        self._file_token: tuple[int, str] | None = None
        self._skill_token: tuple[int, str] | None = None
        self.skills: SkillIndex | None = None
        self._polling = False

    @property
    def popup(self) -> CompletionPopup:
        """The popup widget."""
        return self.host.popup

    @property
    def composer(self) -> Composer:
        """The composer widget."""
        return self.host.composer

    def index_files(self, root: Path) -> None:
        """Start listing the workspace's files in a worker thread (once)."""
        if self.files is None or self.files.root != root:
            self.files = FileIndex(root)
            self.host.run_worker(self.files.walk, group="file-index", thread=True)

    def refresh(self) -> None:
        """Re-read the composer and show, filter or hide the popup."""
        composer = self.composer
        query = slash_commands.popup_query(composer.text)
        if query is not None:
            rows = [(c.name, f"/{c.name}", c.description) for c in slash_commands.matching(query)]
            self.popup.show("slash", rows, empty="no such command")
            self._file_token = None
        else:
            start, token = composer.token_at_cursor()
            self._skill_token = None
            if token.startswith("@") and "\n" not in token:
                self._file_token = (start, token[1:])
                self._show_files()
            elif token.startswith("$") and "\n" not in token:
                self._file_token = None
                self._skill_token = (start, token[1:])
                self._show_skills()
            else:
                self._file_token = None
                self.popup.hide()
        self._sync()

    def _show_files(self) -> None:
        if self._file_token is None:
            return
        self.index_files(self.host.workspace)
        assert self.files is not None
        found = self.files.search(self._file_token[1], FILE_ROWS)
        rows = [(path, printable(path), "") for path in found]  # a file name is anyone's
        waiting = "searching…" if not self.files.done.is_set() else "no matching files"
        self.popup.show("file", rows, empty=waiting)
        if not self.files.done.is_set() and not self._polling:
            self._polling = True
            self.host.set_timer(WALK_POLL_SECONDS, self._poll_walk)

    def _show_skills(self) -> None:
        if self._skill_token is None:
            return
        workspace = self.host.workspace
        if self.skills is None or self.skills.cwd != workspace:
            self.skills = SkillIndex(self.host.codex_home, workspace)
            self.host.run_worker(self.skills.load, group="skill-index", thread=True)
        if not self.skills.done.is_set():
            self.popup.show("skill", [], empty="reading skills…")
            if not self._polling:
                self._polling = True
                self.host.set_timer(WALK_POLL_SECONDS, self._poll_walk)
            return
        rows = self.skills.search(self._skill_token[1], FILE_ROWS)
        self.popup.show("skill", rows, empty="no matching skills")

    def _poll_walk(self) -> None:
        """While the walk runs, refresh the file rows as more files arrive."""
        self._polling = False
        if self._file_token is not None and self.popup.kind == "file":
            self._show_files()
            self._sync()
        elif self._skill_token is not None and self.popup.kind == "skill":
            self._show_skills()
            self._sync()

    def _sync(self) -> None:
        self.composer.capture_keys = self.popup.is_open or self.host.backtracking

    def hide(self) -> None:
        """Close the popup."""
        self.popup.hide()
        self._file_token = None
        self._skill_token = None
        self._sync()

    async def key(self, key: str) -> bool:
        """Handle a navigation key while the popup is open; False if it is not."""
        popup = self.popup
        if not popup.is_open:
            return False
        if key in ("up", "down"):
            popup.move(-1 if key == "up" else 1)
            return True
        if key == "escape":
            self.hide()
            return True
        choice = popup.selected()
        if popup.kind == "slash":
            if choice is None:
                self.hide()
                if key == "enter":
                    await self.host.submit_text(self.composer.text)
                return True
            if key == "tab":
                self.composer.load_text(f"/{choice} ")
                self.composer.move_cursor(self.composer.document.end)
                self.hide()
            else:
                args = self.composer.text.partition(" ")[2]
                self.composer.clear_input()
                self.hide()
                await self.host.submit_text(f"/{choice} {args}".strip())
            return True
        if popup.kind == "skill" and self._skill_token is not None and choice is not None:
            self.composer.replace_token(self._skill_token[0], f"${choice} ")
            self.hide()
            return True
        if popup.kind == "file" and self._file_token is not None and choice is not None:
            start, _query = self._file_token
            self.composer.replace_token(start, _quoted(choice) + " ")
            self.hide()
            return True
        self.hide()
        return key != "enter"


def _quoted(path: str) -> str:
    return f'"{path}"' if " " in path else path
