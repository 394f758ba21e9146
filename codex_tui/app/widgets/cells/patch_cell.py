"""A patch the model applied (or tried to): files with coloured, numbered diffs."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from codex_core.protocol.common import FileChange
from codex_tui.app.diff_render import patch_content
from codex_tui.app.diffs import patch_files
from codex_tui.app.formatting import excerpt


class PatchCell(Static):
    """`Edited path (+a -r)` and the diff; `finish()` marks success or failure."""

    def __init__(
        self, call_id: str, changes: dict[str, FileChange], cwd: str | None = None
    ) -> None:
        self.call_id = call_id
        self.files = patch_files(changes, cwd)
        self.success: bool | None = None
        self.error = ""
        super().__init__(self._content())

    def finish(self, success: bool, stderr: str) -> None:
        """Show whether the patch applied."""
        self.success = success
        self.error = stderr
        self.update(self._content())

    def _content(self) -> Content:
        colour = "$error" if self.success is False else "$success"
        body = patch_content(self.files, bullet=("● ", colour))
        if self.success is False:
            lines = excerpt(self.error or "the patch did not apply")
            failure = "\n".join(lines.head + lines.tail)
            body = Content.assemble(body, "\n", ("  └ ✗ ", "$error"), (failure, "$error"))
        return body
