"""The YAML frontmatter of a `SKILL.md`: the `name` and `description` scalars it holds.

Only what skills use is read — top-level `key: value` lines with plain, quoted or block
(`|`, `>`) values; anything else in the frontmatter is ignored. As in Codex CLI 0.169, a
value YAML would reject (`[unclosed`) is taken as written.
"""

from __future__ import annotations

import re

DELIMITER = "---"
_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)\s*:(?:\s+(.*)|\s*)$")
_BLOCK = re.compile(r"^[|>][+-]?[0-9]?[+-]?$")


class FrontmatterError(ValueError):
    """A `SKILL.md` whose frontmatter cannot be used; the message says why (0.169's words)."""


def split_frontmatter(text: str) -> list[str]:
    """The lines between the opening and closing `---`."""
    lines = text.removeprefix("\ufeff").splitlines()
    if not lines or lines[0].strip() != DELIMITER:
        raise FrontmatterError("missing YAML frontmatter delimited by ---")
    for index, line in enumerate(lines[1:], start=1):
        if line.strip() == DELIMITER:
            return lines[1:index]
    raise FrontmatterError("missing YAML frontmatter delimited by ---")


def parse_frontmatter(text: str) -> dict[str, str]:
    """The top-level scalar values of the frontmatter, by key."""
    values: dict[str, str] = {}
    lines = split_frontmatter(text)
    index = 0
    while index < len(lines):
        match = _KEY.match(lines[index])
        index += 1
        if match is None:
            continue
        key, value = match.group(1), (match.group(2) or "").strip()
        continuation: list[str] = []
        while index < len(lines) and (not lines[index].strip() or lines[index][0] in " \t"):
            continuation.append(lines[index].strip())
            index += 1
        values[key] = _scalar(value, continuation)
    return values


def _scalar(value: str, continuation: list[str]) -> str:
    if _BLOCK.match(value):
        return "\n".join(continuation).strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return _double_quoted(value[1:-1])
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    return " ".join([value, *continuation]).strip()


def _double_quoted(body: str) -> str:
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "/": "/"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), m.group(0)), body)
