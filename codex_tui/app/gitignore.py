"""`.gitignore` rules for the `@` file walk outside git (pure; git's own rules, simplified).

Supported: comments, blank lines, `!` negation, trailing `/` (directories only), patterns
anchored by a `/` (leading or inner) to the directory of their `.gitignore`, `*`, `?`,
`[...]` and `**`. The last matching rule wins, as in git.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """One pattern line of a `.gitignore` in directory `base` (relative, "" for the root)."""

    base: str
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool


def _translate(pattern: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == len(pattern):
            out.append("/.*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 1 :]:
            end = pattern.index("]", i + 1)
            body = pattern[i + 1 : end].replace("\\", "\\\\")
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


def parse(text: str, base: str = "") -> list[Rule]:
    """The rules of one `.gitignore` file found in directory `base`."""
    rules: list[Rule] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        line = line[1:] if negate else line.removeprefix("\\")
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        body = _translate(line.lstrip("/"))
        regex = re.compile(("" if anchored else "(?:.*/)?") + body + r"\Z")
        rules.append(Rule(base, regex, negate, dir_only))
    return rules


def ignored(rules: list[Rule], path: str, is_dir: bool) -> bool:
    """Whether `path` (relative to the walk's root, `/`-separated) is ignored."""
    result = False
    for rule in rules:
        if rule.dir_only and not is_dir:
            continue
        if rule.base:
            if not path.startswith(rule.base + "/"):
                continue
            relative = path[len(rule.base) + 1 :]
        else:
            relative = path
        if rule.regex.match(relative):
            result = not rule.negate
    return result
