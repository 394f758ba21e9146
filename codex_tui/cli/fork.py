"""`codex fork` before the app starts: which session to copy (`--last` or an id or name), the
copy, and the line the new thread opens with."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from codex_core.config import Config


def fork_for_tui(
    config: Config,
    mode: Literal["none", "picker", "last", "id"],
    wanted: str | None,
    show_all: bool,
) -> tuple[Path | None, str | None]:
    """The forked rollout to open and its notice; (None, None) leaves it to the picker.

    Raises:
        LookupError: No session matches, or the copy cannot be made (one line).
    """
    from codex_core.frontend import NotASessionError, find_session
    from codex_core.frontend.fork import fork_session, last_interactive_session

    try:
        if mode == "id" and wanted:
            source = find_session(config.codex_home, wanted).path
        elif mode == "last":
            source = last_interactive_session(
                config.codex_home, cwd=None if show_all else config.cwd
            )
        else:
            return None, None
        path, original = fork_session(config.codex_home, source)
    except NotASessionError as err:
        raise LookupError(str(err)) from None
    except OSError as err:
        raise LookupError(f"cannot fork the session: {err}") from None
    return path, f"Thread forked from {original}"
