"""The model's plan, with each step's status."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from codex_core.protocol.common import PlanItem

MARKS = {
    "completed": ("✔ ", "$success", "strike $text-muted"),
    "in_progress": ("◐ ", "$accent", "bold"),
    "pending": ("□ ", "$text-muted", ""),
}


class PlanCell(Static):
    """`Updated Plan` and its checklist."""

    def __init__(self, explanation: str | None, plan: list[PlanItem]) -> None:
        parts: list[str | tuple[str, str]] = [("• ", "$text-muted"), ("Updated Plan", "bold")]
        gutter = "  └ "
        if explanation:
            parts += ["\n", (gutter, "$text-muted"), (explanation.strip(), "italic $text-muted")]
            gutter = "    "
        for item in plan:
            mark, mark_style, text_style = MARKS[item.status]
            parts += ["\n", (gutter, "$text-muted"), (mark, mark_style)]
            parts.append((item.step, text_style) if text_style else item.step)
            gutter = "    "
        if not plan and not explanation:
            parts += ["\n", (gutter, "$text-muted"), ("(no steps)", "$text-muted")]
        super().__init__(Content.assemble(*parts))
