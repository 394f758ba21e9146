"""Known-safe (read-only) command classification, including `bash -lc` scripts."""

from __future__ import annotations

from codex_core.command_safety.argv_rules import is_safe_plain_argv
from codex_core.command_safety.shell_script import (
    command_prefixes,
    parse_plain_script,
    shell_wrapper_script,
)

__all__ = [
    "command_prefixes",
    "is_known_safe_command",
    "is_safe_plain_argv",
    "parse_plain_script",
    "shell_wrapper_script",
]


def is_known_safe_command(argv: list[str]) -> bool:
    """Whether `argv` only reads: a known read-only program, or a plain shell script of them.

    `bash -lc SCRIPT` (also `bash -c`, `zsh -lc`, `sh -c`) is safe when the script parses as
    plain words joined by `&&`, `||`, `;` and `|` and every command in it is safe.
    """
    script = shell_wrapper_script(argv)
    if script is None:
        return is_safe_plain_argv(argv)
    commands = parse_plain_script(script)
    return bool(commands) and all(is_safe_plain_argv(command) for command in commands or [])
