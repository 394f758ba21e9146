"""What the model is told about skills: the `<skills_instructions>` list and `$name` injections.

The list follows Codex CLI 0.169 byte for byte (the conformance notes hold a recording):
roots get `rN` aliases, each skill one line `- name: description (file: rN/…/SKILL.md)`.
It must fit 2 % of the model's context window, counted as 0.169 counts it — a line costs
⌈bytes of the line and its newline ÷ 4⌉ tokens; the header is free. When full lines do not
fit, every line keeps its name and path and the room left is handed out one description
character at a time, round robin; when even bare lines do not fit, the list is cut and a
warning says how many skills the model cannot see.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from codex_core.skills.loader import Skill, SkillSet

BUDGET_PERCENT = 2
FALLBACK_CONTEXT_WINDOW = 272_000
"""The window 0.169 assumes for a model it has no metadata for (its budget: 5,440 tokens)."""
BYTES_PER_TOKEN = 4
INTRO = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and a short path that can be expanded into an absolute path using the skill roots table."
)
MENTION = re.compile(r"\$([A-Za-z0-9_:-]+)")


@dataclass(frozen=True)
class _Line:
    name: str
    description: str
    path: str

    def render(self, chars: int | None = None) -> str:
        text = self.description if chars is None else self.description[:chars]
        return f"- {self.name}: {text} (file: {self.path})" if text else self.bare()

    def bare(self) -> str:
        return f"- {self.name}: (file: {self.path})"


def _tokens(byte_count: int) -> int:
    return -(-byte_count // BYTES_PER_TOKEN)


def _cost(line: str) -> int:
    return _tokens(len(line.encode()) + 1)


def skills_instructions(
    skills: SkillSet, context_window: int | None
) -> tuple[str | None, str | None]:
    """The developer-message text listing `skills` (None when there are none) and the
    warning to show when some had to be left out."""
    listed = [s for s in skills.skills if s.implicit]
    if not listed:
        return None, None
    alias = {root: f"r{index}" for index, root in enumerate(skills.roots)}
    lines = [
        _Line(s.name, s.description, f"{alias[s.root]}/{s.path.relative_to(s.root).as_posix()}")
        for s in listed
    ]
    budget = max(1, (context_window or FALLBACK_CONTEXT_WINDOW) * BUDGET_PERCENT // 100)
    rendered, omitted = _fit(lines, budget)
    warning = None
    if omitted:
        many = omitted != 1
        warning = (
            "Exceeded skills context budget. All skill descriptions were removed and "
            f"{omitted} additional skill{'s' if many else ''} {'were' if many else 'was'} "
            "not included in the model-visible skills list."
        )
    body = [
        "<skills_instructions>",
        "## Skills",
        INTRO,
        "### Skill roots",
        *(f"- `{alias[root]}` = `{root.as_posix()}`" for root in skills.roots),
        "### Available skills",
        *rendered,
        "</skills_instructions>",
    ]
    return "\n".join(body), warning


def _fit(lines: list[_Line], budget: int) -> tuple[list[str], int]:
    """The lines as they fit `budget` tokens, and how many were left out."""
    full = [line.render() for line in lines]
    if sum(_cost(text) for text in full) <= budget:
        return full, 0
    bare_bytes = [len(line.bare().encode()) + 1 for line in lines]
    floor = sum(_tokens(n) for n in bare_bytes)
    if floor <= budget:
        return _share_descriptions(lines, bare_bytes, budget - floor), 0
    kept: list[str] = []
    used = 0
    for line, size in zip(lines, bare_bytes, strict=True):
        if used + _tokens(size) <= budget:
            used += _tokens(size)
            kept.append(line.bare())
    return kept, len(lines) - len(kept)


def _share_descriptions(lines: list[_Line], bare_bytes: list[int], room: int) -> list[str]:
    """Hand out `room` tokens one description character at a time, round robin."""
    chars = [0] * len(lines)
    spent = [0] * len(lines)
    prefix_bytes = [0] * len(lines)
    changed = True
    while changed:
        changed = False
        for index, line in enumerate(lines):
            if chars[index] >= len(line.description):
                continue
            grown = prefix_bytes[index] + len(line.description[chars[index]].encode())
            base = _tokens(bare_bytes[index])
            cost = _tokens(bare_bytes[index] + grown + 1) - base  # +1: the space before it
            if cost - spent[index] <= room:
                room -= cost - spent[index]
                chars[index] += 1
                spent[index] = cost
                prefix_bytes[index] = grown
                changed = True
    return [line.render(count) for line, count in zip(lines, chars, strict=True)]


def mentioned_skill_messages(skills: SkillSet, text: str) -> list[str]:
    """The `<skill>` message of each skill `text` names as `$name`, in listing order.

    A name two skills share is ambiguous and injects nothing, as in 0.169.
    """
    named = set(MENTION.findall(text))
    if not named:
        return []
    counts = Counter(skill.name for skill in skills.skills)
    messages: list[str] = []
    for skill in skills.skills:
        if skill.name in named and counts[skill.name] == 1:
            body = _read(skill)
            if body is not None:
                messages.append(
                    f"<skill>\n<name>{skill.name}</name>\n<path>{skill.path}</path>\n{body}\n</skill>"
                )
    return messages


def _read(skill: Skill) -> str | None:
    try:
        return skill.path.read_text("utf-8", errors="replace")
    except OSError:
        return None
