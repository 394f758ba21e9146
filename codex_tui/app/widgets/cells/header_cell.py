"""The session header: version, model, directory, policies and a few hints."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from codex_core.items import notices as n
from codex_tui.app.chat_words import HINTS
from codex_tui.app.formatting import shorten_path


class HeaderCell(Static):
    """The box at the top of every session."""

    def __init__(
        self, *, version: str, model: str, directory: str, approval: str, sandbox: str
    ) -> None:
        self.version = version
        self.model = model
        self.directory = directory
        self.approval = approval
        self.sandbox = sandbox
        super().__init__(self._content())

    @classmethod
    def of_session(cls, event: n.ThreadStarted, version: str) -> HeaderCell:
        """The header of the session `event` started."""
        return cls(
            version=version,
            model=event.model,
            directory=shorten_path(event.cwd or "."),
            approval=event.approval_policy or "default",
            sandbox=event.sandbox_policy.mode if event.sandbox_policy else "default",
        )

    def _content(self) -> Content:
        parts: list[str | tuple[str, str]] = [
            (">_ ", "$text-muted"),
            ("Codex", "bold"),
            (f" (v{self.version})", "$text-muted"),
            "\n\n",
        ]
        for label, value in (
            ("model", self.model),
            ("directory", self.directory),
            ("approval", self.approval),
            ("sandbox", self.sandbox),
        ):
            parts += [(f"{label + ':':<11}", "$text-muted"), value, "\n"]
        parts.append("\n")
        for command, hint in HINTS:
            parts += [(f"{command:<10}", "$accent"), (hint, "$text-muted"), "\n"]
        return Content.assemble(*parts).rstrip()
