"""How a command is shown to the user: as typed, without the `bash -lc` wrapper."""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence

SHELLS = frozenset({"bash", "sh", "zsh", "dash"})
SCRIPT_FLAGS = frozenset({"-lc", "-c"})


def display_command(argv: Sequence[str]) -> str:
    """The command as a user would type it.

    `bash -lc SCRIPT` (any of bash/sh/zsh/dash, by name or path, with `-c` or `-lc`)
    shows as SCRIPT; anything else is shell-quoted and joined.
    """
    if len(argv) == 3 and os.path.basename(argv[0]) in SHELLS and argv[1] in SCRIPT_FLAGS:
        return argv[2]
    return shlex.join(argv)


def describe_interaction(process_id: str, stdin: str, limit: int = 60) -> str:
    """One line for a `write_stdin` call: what was typed into which session, or a wait."""
    if not stdin:
        return f"waited for output from session {process_id}"
    shown = stdin if len(stdin) <= limit else stdin[: limit - 1] + "…"
    return f"sent {shown!r} to session {process_id}"
