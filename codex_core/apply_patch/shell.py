"""Recognise apply_patch invocations inside shell command argv (direct or heredoc)."""

from __future__ import annotations

import os
import re

APPLY_PATCH_COMMANDS = ("apply_patch", "applypatch")
_SHELLS = ("bash", "zsh", "sh")
_SHELL_FLAGS = ("-lc", "-c")

# `[cd DIR &&] apply_patch <<['"]DELIM['"]` up to the end of the heredoc's first line.
_HEREDOC_HEAD = re.compile(
    r"""
    \A\s*
    (?:cd[ \t]+(?P<dir>'[^'\n]*'|"[^"\\$`\n]*"|[^\s'"\\$`&|;<>()]+)[ \t]*&&[ \t]*)?
    (?:apply_patch|applypatch)[ \t]*
    <<[ \t]*(?P<quote>['"]?)(?P<delim>[A-Za-z_][A-Za-z0-9_]*)(?P=quote)
    [ \t]*\r?\n
    """,
    re.VERBOSE,
)


def extract_apply_patch_from_shell(argv: list[str]) -> tuple[str, str | None] | None:
    """The patch text and `cd` workdir of an apply_patch call hidden in a command argv.

    Recognised forms: `["apply_patch", PATCH]` and `["applypatch", PATCH]`; and
    `[SHELL, "-lc" | "-c", SCRIPT]` (SHELL being bash, zsh or sh, by name or path) whose
    whole script is `[cd DIR && ]apply_patch <<'EOF'` … `EOF` (also `<<EOF`, `<<"EOF"`,
    any delimiter word). Anything before or after the heredoc means it is not a plain
    apply_patch call.

    Args:
        argv: the command a model asked to run.

    Returns:
        `(patch_text, workdir)`, with workdir None unless the script starts with `cd DIR &&`;
        None when `argv` is not an apply_patch invocation.
    """
    if len(argv) == 2 and argv[0] in APPLY_PATCH_COMMANDS:
        return argv[1], None
    if len(argv) != 3 or os.path.basename(argv[0]) not in _SHELLS:
        return None
    if argv[1] not in _SHELL_FLAGS:
        return None
    return _extract_from_script(argv[2])


def _extract_from_script(script: str) -> tuple[str, str | None] | None:
    head = _HEREDOC_HEAD.match(script)
    if head is None:
        return None
    delimiter = head.group("delim")
    rest = script[head.end() :]
    body_lines: list[str] = []
    remaining: list[str] = []
    lines = rest.split("\n")
    for index, line in enumerate(lines):
        if line.rstrip("\r").rstrip() == delimiter:
            remaining = lines[index + 1 :]
            break
        body_lines.append(line)
    else:
        return None  # the heredoc is never closed
    if any(line.strip() for line in remaining):
        return None  # more commands follow the heredoc
    workdir = head.group("dir")
    if workdir is not None and workdir[:1] in ("'", '"'):
        workdir = workdir[1:-1]
    return "\n".join(body_lines), workdir
