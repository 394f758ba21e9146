"""Turn parsed patches into styled Content (used by patch cells and the approval modal)."""

from __future__ import annotations

from textual.content import Content

from codex_tui.app.diffs import DiffLine, FileDiff
from codex_tui.app.formatting import truncate_line

MAX_DIFF_LINES = 300
"""Per file; the rest is summarised as `… +N lines`."""

LINE_STYLES = {"add": "$success", "remove": "$error", "context": "", "hunk": "$text-muted"}
SIGNS = {"add": "+", "remove": "-", "context": " ", "hunk": " "}

Part = str | tuple[str, str]


def counts(added: int, removed: int) -> list[Part]:
    """`(+a -r)` with coloured numbers."""
    return ["(", (f"+{added}", "$success"), " ", (f"-{removed}", "$error"), ")"]


def diff_body(lines: list[DiffLine], indent: str, max_lines: int = MAX_DIFF_LINES) -> list[Part]:
    """Numbered, coloured diff lines, each starting with `indent`, ending with a newline."""
    shown = lines[:max_lines]
    width = max((len(str(line.number)) for line in shown if line.number is not None), default=1)
    parts: list[Part] = []
    for line in shown:
        number = "" if line.number is None else str(line.number)
        style = LINE_STYLES[line.kind]
        parts.append((f"{indent}{number:>{width}} ", "$text-muted"))
        text = f"{SIGNS[line.kind]}{truncate_line(line.text.rstrip())}"
        parts.append((text, style) if style else text)
        parts.append("\n")
    if len(lines) > max_lines:
        parts.append((f"{indent}… +{len(lines) - max_lines} lines\n", "$text-muted"))
    return parts


def file_title(diff: FileDiff) -> list[Part]:
    """`path (+a -r)`, with the move target when the file is renamed."""
    target = f"{diff.path} → {diff.move_path}" if diff.move_path else diff.path
    return [(target, "bold"), " ", *counts(diff.added, diff.removed)]


def patch_content(
    files: list[FileDiff], *, bullet: tuple[str, str], verb: str | None = None
) -> Content:
    """A whole patch: one titled diff for a single file, a list of titled diffs for several."""
    parts: list[Part] = [bullet]
    if len(files) == 1:
        only = files[0]
        parts += [(f"{verb or only.verb} ", "bold"), *file_title(only), "\n"]
        parts += diff_body(only.lines, "    ")
    else:
        added = sum(f.added for f in files)
        removed = sum(f.removed for f in files)
        parts += [
            (f"{verb or 'Edited'} {len(files)} files ", "bold"),
            *counts(added, removed),
            "\n",
        ]
        for index, diff in enumerate(files):
            parts += [("  └ " if index == 0 else "    ", "$text-muted"), *file_title(diff), "\n"]
            parts += diff_body(diff.lines, "      ")
    return Content.assemble(*parts).rstrip()
