"""`codex archive|unarchive|delete SESSION`: move a recorded session out of the way, back, or
remove it, with Codex 0.169's arguments, messages and exit codes.

SESSION is a session id, a thread name (`session_index.jsonl`, as `codex resume NAME`) or an
unambiguous id prefix; 0.169 takes whole ids only (its name lookup never matched a name set
by `thread/name/set`, see ../shared/conformance/remote_cli_0169.md). `delete --force` takes a
whole id only, as in 0.169, and `delete` without it asks on the terminal.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Literal

from codex_tui.cli.args import CliParser, add_common_flags

Verb = Literal["archive", "unarchive", "delete"]
Where = Literal["active", "archived", "any"]
_WHERE: dict[Verb, Where] = {"archive": "active", "unarchive": "archived", "delete": "any"}
_NOT_FOUND: dict[Where, str] = {
    "active": "No active session found matching",
    "archived": "No archived session found matching",
    "any": "No active or archived session found matching",
}
_VERB_OF: dict[Where, Verb] = {where: verb for verb, where in _WHERE.items()}
_DESCRIPTIONS: dict[Verb, str] = {
    "archive": "Archive a saved session by id or session name.",
    "unarchive": "Unarchive a saved session by id or session name.",
    "delete": "Permanently delete a saved session by id or session name.",
}


class SessionCommandError(Exception):
    """One line for stderr (after `Error: `); the command exits 1."""


def build_parser(verb: Verb) -> argparse.ArgumentParser:
    """`codex VERB [OPTIONS] SESSION` (the shared options are accepted and have no effect)."""
    parser = CliParser(prog=f"codex {verb}", description=_DESCRIPTIONS[verb])
    add_common_flags(parser)
    if verb == "delete":
        parser.add_argument(
            "--force", action="store_true", help="delete without asking; SESSION must be an id"
        )
    parser.add_argument(
        "session",
        metavar="SESSION",
        help="session id, thread name, or unambiguous id prefix (an id wins over a name)",
    )
    return parser


def is_uuid(text: str) -> bool:
    """Whether `text` parses as a UUID (0.169 tries this before names)."""
    try:
        uuid.UUID(text.strip())
    except ValueError:
        return False
    return True


def _candidates(codex_home: Path, where: Where) -> dict[str, Path]:
    """Session id → rollout path, in the folders `where` names (active first)."""
    from codex_core.rollout.format import parse_rollout_name
    from codex_core.rollout.scan import rollout_entries

    found: dict[str, Path] = {}
    for entry in rollout_entries(codex_home, include_archived=where != "active"):
        parsed = parse_rollout_name(entry.name)
        if parsed is None:
            continue
        archived = "archived_sessions" in Path(entry.path).parts
        if (where == "archived" and not archived) or (where == "active" and archived):
            continue
        found.setdefault(parsed[1], Path(entry.path))
    return found


def resolve(codex_home: Path, wanted: str, where: Where) -> tuple[str, Path]:
    """The session id and rollout of `wanted`: an id, then a thread name, then an id prefix.

    Raises:
        SessionCommandError: Nothing (or more than one session) matches.
    """
    from codex_core.frontend.sessions import thread_name_index

    found = _candidates(codex_home, where)
    key = wanted.strip().lower()
    if key in found:
        return key, found[key]
    named = thread_name_index(codex_home).get(wanted.strip())
    if named is not None and named.lower() in found:
        return named.lower(), found[named.lower()]
    prefixed = [sid for sid in found if key and sid.startswith(key)]
    if len(prefixed) == 1 and not is_uuid(wanted):
        return prefixed[0], found[prefixed[0]]
    if is_uuid(wanted):
        # as 0.169: a whole id that is not there (already archived, say) fails the action
        raise SessionCommandError(f"failed to {_VERB_OF[where]} session")
    raise SessionCommandError(f"{_NOT_FOUND[where]} '{wanted}'.")


def archive(codex_home: Path, wanted: str) -> str:
    """Move an active session to `archived_sessions/`; the line to print."""
    from codex_core.rollout import archive_session
    from codex_core.rollout.state_sync import record_move

    session_id, path = resolve(codex_home, wanted, "active")
    try:
        target = archive_session(codex_home, path)
    except (OSError, ValueError) as err:
        raise SessionCommandError(f"failed to archive session: {err}") from None
    record_move(codex_home, session_id, target, archived=True)
    return f"Archived session {session_id}."


def unarchive(codex_home: Path, wanted: str) -> str:
    """Move an archived session back under `sessions/`; the line to print."""
    from codex_core.rollout import unarchive_session
    from codex_core.rollout.state_sync import record_move

    session_id, _path = resolve(codex_home, wanted, "archived")
    try:
        target = unarchive_session(codex_home, session_id)
    except OSError as err:
        raise SessionCommandError(f"failed to unarchive session: {err}") from None
    now = time.time()
    try:
        os.utime(target, (now, now))  # as 0.169: an unarchived session is recent again
    except OSError:
        pass
    record_move(codex_home, session_id, target, archived=False, touched_at=now)
    name = _thread_name(codex_home, session_id)
    shown = f"{name} ({session_id})" if name else session_id
    return f"Unarchived session {shown}."


def _thread_name(codex_home: Path, session_id: str) -> str | None:
    """The session's thread name, if it has one (0.169 names it when unarchiving)."""
    from codex_core.frontend.sessions import thread_names_by_id

    return thread_names_by_id(codex_home).get(session_id)


def delete(codex_home: Path, wanted: str, *, force: bool) -> str:
    """Remove a session's rollout (and its state_5 row), asking first unless `force`."""
    from codex_core.frontend.sessions import forget_thread_names
    from codex_core.rollout.state_sync import forget_thread

    if force and not is_uuid(wanted):
        raise SessionCommandError(
            "--force requires a session UUID; names must be confirmed interactively"
        )
    if not force and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise SessionCommandError(
            "cannot confirm session deletion without an interactive terminal; "
            "rerun with --force and a session UUID"
        )
    session_id, path = resolve(codex_home, wanted, "any")
    forks = _forks_reading(codex_home, session_id)
    if forks:
        # a fork made by Codex 0.169 reads its history from this file (0.169 refuses too)
        raise SessionCommandError(
            f"failed to delete session: fork {forks[0]} keeps its history in it; "
            "delete or archive that fork's own copy first"
        )
    if not force and not _confirm(session_id):
        return "Delete cancelled."
    try:
        path.unlink()
    except OSError as err:
        raise SessionCommandError(f"failed to delete session: {err.strerror}") from None
    forget_thread(codex_home, session_id)
    try:
        forget_thread_names(codex_home, session_id)
    except OSError:
        pass  # the session is gone; a stale name only fails to resolve later
    return f"Deleted session {session_id}."


def _forks_reading(codex_home: Path, session_id: str) -> list[str]:
    """Ids of the sessions whose `history_base` is `session_id` (0.169's forks)."""
    from codex_core.rollout.format import parse_rollout_name
    from codex_core.rollout.layout import read_meta
    from codex_core.rollout.scan import rollout_entries

    found: list[str] = []
    for entry in rollout_entries(codex_home, include_archived=True):
        parsed = parse_rollout_name(entry.name)
        if parsed is None or parsed[1] == session_id:
            continue
        try:
            base = read_meta(Path(entry.path)).get("history_base")
        except OSError:
            continue
        if isinstance(base, dict) and str(base.get("thread_id", "")).lower() == session_id:
            found.append(parsed[1])
    return found


def _confirm(session_id: str) -> bool:
    print(f"Permanently delete session {session_id}?")
    print("This cannot be undone.")
    try:
        answer = input("Continue? [y/N]: ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def archive_main(argv: list[str]) -> int:
    """`codex archive SESSION`."""
    return main("archive", argv)


def unarchive_main(argv: list[str]) -> int:
    """`codex unarchive SESSION`."""
    return main("unarchive", argv)


def delete_main(argv: list[str]) -> int:
    """`codex delete [--force] SESSION`."""
    return main("delete", argv)


def main(verb: Verb, argv: list[str]) -> int:
    """Entry for `codex archive|unarchive|delete` (argv after the verb)."""
    from codex_tui.cli.config_flags import ConfigFlagError, check_config_flags

    ns = build_parser(verb).parse_args(argv)
    try:
        home = check_config_flags(ns)
    except ConfigFlagError as err:
        print(err, file=sys.stderr)
        return 1
    try:
        if verb == "archive":
            line = archive(home, ns.session)
        elif verb == "unarchive":
            line = unarchive(home, ns.session)
        else:
            line = delete(home, ns.session, force=ns.force)
    except SessionCommandError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    print(line)
    return 0
