"""Logging for frontends that own the terminal: records go to CODEX_HOME/log/, never to it."""

from __future__ import annotations

import logging
from pathlib import Path

from codex_core.private_files import private_mkdir, touch_private


def log_to_file(codex_home: Path, name: str) -> None:
    """Send the root logger's records to `CODEX_HOME/log/<name>` (0600: prompts and code end
    up in it) instead of any stream handler; INFO and up unless a lower level is set."""
    root = logging.getLogger()
    for existing in list(root.handlers):
        if isinstance(existing, logging.StreamHandler) and not isinstance(
            existing, logging.FileHandler
        ):
            root.removeHandler(existing)
    try:
        log_dir = codex_home / "log"
        private_mkdir(log_dir)
        touch_private(log_dir / name)
        handler: logging.Handler = logging.FileHandler(log_dir / name, encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")
    )
    root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)


class _OneLine(logging.Formatter):
    """`LEVEL name: message` with the exception named on the same line, no traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line = f"{record.levelname} {record.name}: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            err = record.exc_info[1]
            line += f" ({type(err).__name__}: {err}; traceback in the log file)"
        return line


def log_with_tracebacks_in_file(codex_home: Path, name: str, *, debug: bool = False) -> None:
    """Records go to `CODEX_HOME/log/<name>` with their tracebacks; warnings and errors also
    reach stderr as one line each (tracebacks too with `debug`), as a headless run needs."""
    log_to_file(codex_home, name)
    stderr = logging.StreamHandler()
    stderr.setLevel(logging.DEBUG if debug else logging.WARNING)
    stderr.setFormatter(
        logging.Formatter("%(levelname)s %(name)s: %(message)s") if debug else _OneLine()
    )
    root = logging.getLogger()
    root.addHandler(stderr)
    if debug:
        root.setLevel(logging.DEBUG)
