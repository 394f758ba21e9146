"""Property tests: random files and random edits, rendered as patches, apply back exactly."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from codex_core.apply_patch import apply_patch, compute_changes, parse_patch

# Line text never holds a line break; a mix of ASCII, spaces, markers and non-ASCII.
_TEXT = st.text(
    alphabet=st.sampled_from(list("ab *+-@#\t\u00e9\u2014\u201c")), min_size=0, max_size=8
)


@dataclass(frozen=True)
class _Edit:
    start: int  # first original line replaced
    length: int  # how many original lines are replaced (0 = pure insertion)
    new: tuple[str, ...]


@st.composite
def _file_and_edits(draw: st.DrawFn) -> tuple[list[str], list[_Edit]]:
    # Numbered lines keep every line unique, so each chunk has exactly one home.
    texts = draw(st.lists(_TEXT, min_size=0, max_size=25))
    lines = [f"{i}:{text}" for i, text in enumerate(texts)]
    edits: list[_Edit] = []
    cursor = 0
    while cursor <= len(lines) and draw(st.booleans()):
        start = draw(st.integers(cursor, len(lines)))
        length = draw(st.integers(0, min(3, len(lines) - start)))
        new = tuple(f"new{len(edits)}:{t}" for t in draw(st.lists(_TEXT, max_size=3)))
        if length == 0 and not new:
            break
        edits.append(_Edit(start, length, new))
        cursor = start + length + 1  # keep one untouched line between edits
    return lines, edits


def _edited(lines: list[str], edits: list[_Edit]) -> list[str]:
    out = list(lines)
    for edit in reversed(edits):
        out[edit.start : edit.start + edit.length] = edit.new
    return out


def _render(path: str, lines: list[str], edits: list[_Edit], context: int) -> str:
    """An Update File hunk with one chunk per edit; context never overlaps another chunk."""
    body = [f"*** Update File: {path}"]
    used = 0  # original lines already consumed by earlier chunks
    for index, edit in enumerate(edits):
        radius = context
        if edit.length == 0 and edit.start < len(lines):
            radius = max(radius, 1)  # a chunk with no old lines would go to the end of file
        stop = edit.start + edit.length
        limit = edits[index + 1].start if index + 1 < len(edits) else len(lines)
        before = lines[max(used, edit.start - radius) : edit.start]
        after = lines[stop : min(limit, stop + radius)]
        used = stop + len(after)
        body.append("@@")
        body += [f" {line}" for line in before]
        body += [f"-{line}" for line in lines[edit.start : stop]]
        body += [f"+{line}" for line in edit.new]
        body += [f" {line}" for line in after]
        if used == len(lines) and (before or edit.length or after):
            body.append("*** End of File")
    return "*** Begin Patch\n" + "\n".join(body) + "\n*** End Patch\n"


@settings(max_examples=150, deadline=None)
@given(_file_and_edits(), st.integers(0, 3))
def test_apply_patch_random_edits_round_trip(
    case: tuple[list[str], list[_Edit]], context: int
) -> None:
    lines, edits = case
    if not edits:
        return
    expected = "".join(f"{line}\n" for line in _edited(lines, edits))
    patch = _render("file.txt", lines, edits, context)
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        target = cwd / "file.txt"
        target.write_bytes("".join(f"{line}\n" for line in lines).encode())
        (change,) = compute_changes(parse_patch(patch), cwd)
        assert change.new_content == expected
        apply_patch(patch, cwd)
        assert target.read_bytes().decode() == expected


@settings(max_examples=75, deadline=None)
@given(st.lists(_TEXT, max_size=10))
def test_apply_patch_random_add_file_round_trip(texts: list[str]) -> None:
    patch = "*** Begin Patch\n*** Add File: new.txt\n" + "".join(f"+{t}\n" for t in texts)
    patch += "*** End Patch"
    with tempfile.TemporaryDirectory() as tmp:
        apply_patch(patch, Path(tmp))
        assert (Path(tmp) / "new.txt").read_text(encoding="utf-8") == "".join(
            f"{t}\n" for t in texts
        )
