"""Which tool calls a hook group's `matcher` selects, as observed in Codex CLI 0.169.

Hooks see tools under their own names: `Bash` for `exec_command` and `shell`,
`apply_patch` (also matched by `Edit` and `Write`), `mcp__<server>__<tool>` for MCP tools.
No matcher, `*` or an empty one select everything; a plain name (letters, digits, `_`,
`|`) must equal one of the names; anything else is a regular expression searched in them.
"""

from __future__ import annotations

import functools
import re


# Patterns compile on first use: not on the way to the first model request.
@functools.cache
def _plain() -> re.Pattern[str]:
    return re.compile(r"^[A-Za-z0-9_|]+$")


ALIASES = {"apply_patch": ("apply_patch", "Edit", "Write")}


def matches(matcher: str | None, tool_name: str | None) -> bool:
    """Whether a group with `matcher` runs for `tool_name` (None: an event without tools)."""
    if matcher is None or matcher in ("", "*"):
        return True
    if tool_name is None:
        return False
    names = ALIASES.get(tool_name, (tool_name,))
    if _plain().match(matcher):
        wanted = set(matcher.split("|"))
        return any(name in wanted for name in names)
    try:
        pattern = re.compile(matcher)
    except re.error:
        return False
    return any(pattern.search(name) for name in names)
