"""Colouring a unified diff (from `codex_core.git_snapshot.working_tree_diff`) for the pager."""

from __future__ import annotations

from textual.content import Content

from codex_core.terminal_text import printable


def diff_lines(diff: str) -> list[Content]:
    """Colour a unified diff line by line for the pager."""
    out: list[Content] = []
    for line in printable(diff).splitlines():  # file contents are the model's to write
        if line.startswith(("diff --git", "+++", "---", "index ", "new file", "deleted file")):
            out.append(Content.styled(line, "bold"))
        elif line.startswith("@@"):
            out.append(Content.styled(line, "$accent"))
        elif line.startswith("+"):
            out.append(Content.styled(line, "$success"))
        elif line.startswith("-"):
            out.append(Content.styled(line, "$error"))
        else:
            out.append(Content(line))
    return out
