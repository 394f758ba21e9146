"""What the whole turn changed: files and their +/- counts."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from codex_tui.app.diff_render import counts
from codex_tui.app.diffs import DiffStat


class DiffSummaryCell(Static):
    """`Turn diff: N files changed (+a -r)` and one line per file."""

    def __init__(self, stats: list[DiffStat]) -> None:
        added = sum(s.added for s in stats)
        removed = sum(s.removed for s in stats)
        noun = "file" if len(stats) == 1 else "files"
        parts: list[str | tuple[str, str]] = [
            ("• ", "$text-muted"),
            (f"Turn diff: {len(stats)} {noun} changed ", "bold"),
            *counts(added, removed),
        ]
        for index, stat in enumerate(stats):
            parts += ["\n", ("  └ " if index == 0 else "    ", "$text-muted"), stat.path, " "]
            parts += counts(stat.added, stat.removed)
        super().__init__(Content.assemble(*parts))
