"""`codex sessions list`: recorded sessions as a table or JSON lines, newest first."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from codex_core.frontend.home import find_codex_home
from codex_core.frontend.relative_time import relative_age
from codex_core.rollout import InvalidCursorError, SessionSummary, list_sessions
from codex_core.terminal_text import printable

HEADERS = ("Updated", "Branch", "CWD", "Conversation")
_BRANCH_WIDTH = 24
_CWD_WIDTH = 32


def _shorten(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    return text[: max(0, width - 1)] + "…"


def _home_relative(path: str | None) -> str:
    if not path:
        return "-"
    home = str(Path.home())
    if path == home or path.startswith(home + os.sep):
        return "~" + path[len(home) :]
    return path


def _one_line(text: str) -> str:
    return printable(" ".join(text.split()))


def render_table(items: list[SessionSummary], width: int, now: float) -> list[str]:
    """The table lines (header first) for `items`, fitted to `width` columns."""
    rows = [
        (
            relative_age(item.updated_at, now),
            _shorten(printable(item.git_branch or "-"), _BRANCH_WIDTH),
            _shorten(printable(_home_relative(item.cwd)), _CWD_WIDTH),
            _one_line(item.preview),
        )
        for item in items
    ]
    widths = [max([len(HEADERS[i])] + [len(row[i]) for row in rows]) for i in range(3)]
    lines = []
    for row in [HEADERS, *rows]:
        left = "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:3]))
        room = max(10, width - len(left) - 2)
        lines.append(f"{left}  {_shorten(row[3], room)}".rstrip())
    return lines


def _as_json(item: SessionSummary) -> str:
    updated = datetime.fromtimestamp(item.updated_at, UTC).isoformat().replace("+00:00", "Z")
    record = {
        "id": item.id,
        "path": item.path,
        "created_at": item.created_at,
        "updated_at": updated,
        "cwd": item.cwd,
        "git_branch": item.git_branch,
        "model_provider": item.model_provider,
        "preview": item.preview,
        "archived": item.archived,
    }
    return json.dumps(record, ensure_ascii=False)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="codex sessions", description="Recorded sessions.")
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="list sessions, most recently updated first")
    listing.add_argument("--json", action="store_true", help="print one JSON object a line")
    listing.add_argument("--all", action="store_true", help="sessions from every directory")
    listing.add_argument("--cwd", metavar="DIR", help="sessions started in DIR (default: here)")
    listing.add_argument("--archived", action="store_true", help="include archived sessions")
    listing.add_argument(
        "--limit", type=int, default=25, metavar="N", help="show at most N sessions (0: all)"
    )
    archive = commands.add_parser("archive", help="move a session into archived_sessions/")
    archive.add_argument("session_id", help="session id or unambiguous prefix")
    fork = commands.add_parser("fork", help="copy a session into a new one")
    fork.add_argument("session_id", help="session id or unambiguous prefix")
    fork.add_argument(
        "--before",
        type=int,
        metavar="N",
        help="keep only what came before the Nth user message (1 = the first)",
    )
    return parser


def _manage(ns: argparse.Namespace, home: Path, stream: TextIO) -> int:
    """`archive` and `fork`: one line on success, one line on stderr otherwise."""
    from codex_core.rollout import (
        NotASessionError,
        archive_session,
        find_session_path,
        fork_rollout,
    )

    try:
        # A corrupt file can still be archived out of the way; forking needs a real session.
        path = find_session_path(home, ns.session_id, check=ns.command != "archive")
    except NotASessionError as err:
        print(f"codex sessions {ns.command}: {err}", file=sys.stderr)
        return 1
    if path is None:
        print(f"codex sessions: no session matches {ns.session_id!r}", file=sys.stderr)
        return 1
    try:
        if ns.command == "archive":
            print(f"Archived to {archive_session(home, path)}", file=stream)
            return 0
        if ns.before is not None and ns.before < 1:
            print("codex sessions fork: --before counts from 1", file=sys.stderr)
            return 2
        nth = None if ns.before is None else ns.before - 1
        new = fork_rollout(home, path, nth)
    except (OSError, ValueError) as err:
        print(f"codex sessions {ns.command}: {err}", file=sys.stderr)
        return 1
    print(f"Forked into {new}", file=stream)
    return 0


def _collect(ns: argparse.Namespace, home: Path) -> list[SessionSummary]:
    """The sessions to show; files that are not sessions get one warning line each."""
    cwd = None if ns.all else (ns.cwd or os.getcwd())
    limit = ns.limit if ns.limit > 0 else None
    items: list[SessionSummary] = []
    cursor: str | None = None
    while limit is None or len(items) < limit:
        page_size = 100 if limit is None else min(100, limit - len(items))
        page = list_sessions(
            home, page_size=page_size, cursor=cursor, cwd=cwd, include_archived=ns.archived
        )
        items.extend(page.items)
        for skipped in page.skipped:
            print(f"codex sessions: {printable(skipped.warning)}", file=sys.stderr)
        cursor = page.next_cursor
        if cursor is None:
            break
    return items


def main(argv: list[str], out: TextIO | None = None) -> int:
    """Entry for `codex sessions list|archive|fork …` (argv after `sessions`)."""
    stream = out if out is not None else sys.stdout
    try:
        ns = _parser().parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    home = find_codex_home()
    if ns.command in ("archive", "fork"):
        return _manage(ns, home, stream)
    try:
        items = _collect(ns, home)
    except InvalidCursorError as err:
        print(f"codex sessions: {err}", file=sys.stderr)
        return 1
    if ns.json:
        for item in items:
            print(_as_json(item), file=stream)
        return 0
    if not items:
        where = "" if ns.all else " in this directory (use --all to see every directory)"
        print(f"No recorded sessions{where}.", file=stream)
        return 0
    width = shutil.get_terminal_size((100, 24)).columns
    for line in render_table(items, width, time.time()):
        print(line, file=stream)
    return 0
