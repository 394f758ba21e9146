"""Suggest the prefix for "don't ask again for commands starting with …"."""

from __future__ import annotations

import re

from codex_core.command_safety import parse_plain_script, shell_wrapper_script

# Programs whose first word alone says nothing about what runs: allowing `python` or
# `sudo` would allow everything, so no prefix is suggested for them.
_NO_SUGGESTION = frozenset(
    {
        "bash", "sh", "zsh", "fish", "dash", "ksh", "env", "sudo", "doas", "su", "xargs",
        "exec", "eval", "command", "builtin", "nohup", "nice", "time", "timeout", "watch",
        "python", "python3", "node", "perl", "ruby", "php", "ssh", "osascript",
    }
)  # fmt: skip
_SUBCOMMAND = re.compile(r"[A-Za-z][A-Za-z0-9_:-]*")


def suggest_prefix(argv: list[str]) -> list[str] | None:
    """The first one or two words of a command to offer as an allow-rule prefix.

    The second word is kept when it looks like a subcommand (`git push`, `npm test`), not a
    flag or a path. A `bash -lc` script of one plain command is looked into. None when no
    prefix would be narrower than "anything": interpreters, shells, wrappers like `sudo`,
    or scripts with several or non-plain commands.
    """
    script = shell_wrapper_script(argv)
    if script is not None:
        commands = parse_plain_script(script)
        if not commands or len(commands) != 1:
            return None
        argv = commands[0]
    if not argv or not argv[0] or argv[0] in _NO_SUGGESTION or "/" in argv[0]:
        return None
    if len(argv) > 1 and _SUBCOMMAND.fullmatch(argv[1]):
        return argv[:2]
    return argv[:1]
