"""Where CODEX_HOME is: `$CODEX_HOME` (which must be an existing directory) or `~/.codex`.

Standard library only: `codex sandbox` resolves CODEX_HOME too and is benchmarked.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs ~3 ms here
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

CODEX_HOME_ENV = "CODEX_HOME"
DEFAULT_DIRNAME = ".codex"


class CodexHomeError(Exception):
    """`$CODEX_HOME` is set but does not name a directory; the message is one line."""


def find_codex_home(environ: Mapping[str, str] | None = None) -> Path:
    """The CODEX_HOME directory, as the Codex CLI resolves it.

    An empty `CODEX_HOME` counts as unset. A set one is taken as written (no `~`
    expansion, like the Codex CLI) and must be an existing directory; it is returned
    resolved. Unset, it is `$HOME/.codex`, which need not exist yet.

    Args:
        environ: The environment to read; `os.environ` when omitted.

    Raises:
        CodexHomeError: `CODEX_HOME` names a missing path or a file.
    """
    from pathlib import Path

    return Path(codex_home_dir(environ))


def codex_home_dir(environ: Mapping[str, str] | None = None) -> str:
    """`find_codex_home` as a string, without importing pathlib (the sandbox path uses it).

    Raises:
        CodexHomeError: `CODEX_HOME` names a missing path or a file.
    """
    env = os.environ if environ is None else environ
    value = env.get(CODEX_HOME_ENV, "")
    if value:
        if not os.path.isdir(value):
            raise CodexHomeError(codex_home_problem(value, exists=os.path.exists(value)))
        return os.path.realpath(value)
    user_home = env.get("HOME") or os.path.expanduser("~")
    return os.path.join(user_home, DEFAULT_DIRNAME)


def codex_home_problem(value: str, *, exists: bool) -> str:
    """The one-line error for a `CODEX_HOME` that is not a directory, with the fix."""
    if exists:
        return (
            f'CODEX_HOME points to "{value}", but that path is not a directory; '
            f"point CODEX_HOME at a directory or unset it"
        )
    return (
        f'CODEX_HOME points to "{value}", but that path does not exist; '
        f"create it with `mkdir -p {value}` or unset CODEX_HOME"
    )
