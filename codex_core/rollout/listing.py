"""Listing recorded sessions newest first (by last update), a page at a time.

Every rollout file is stat'ed (cheap), ordered by modification time, and only the heads the
page needs are looked at: from the SQLite catalog when the file is unchanged since it was
cached, else by reading the start of the file.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from codex_core.rollout.catalog import Catalog
from codex_core.rollout.format import ARCHIVED_DIR, SESSIONS_DIR, parse_rollout_name
from codex_core.rollout.head import Head, read_head
from codex_core.rollout.scan import rollout_names, session_folders

log = logging.getLogger(__name__)

DEFAULT_PAGE_SIZE = 25
INTERACTIVE_SOURCES = frozenset({"cli", "vscode"})
"""The sessions 0.169's resume picker lists: those a person typed in; a session whose meta
names no source counts as one (0.169's default source is `vscode`). Seen side by side with
codex-rust 0.169: `exec`, `mcp`, `{"subagent": …}` and unknown sources are left out."""
DEFAULT_PROVIDER = "openai"
_LOOKAHEAD = 64

HeadReader = Callable[[str], Head]


class InvalidCursorError(ValueError):
    """A cursor string that no listing produced."""


@dataclass(frozen=True)
class SessionSummary:
    """One row of a session listing."""

    id: str
    path: str
    created_at: str
    updated_at: float
    cwd: str | None
    git_branch: str | None
    model_provider: str | None
    preview: str
    archived: bool = False


@dataclass(frozen=True)
class SkippedFile:
    """A rollout file the listing passed over because it is not a Codex session."""

    path: str
    reason: str

    @property
    def warning(self) -> str:
        """The one line a frontend shows, naming the file."""
        return f"skipping {self.path}: this file is not a Codex session ({self.reason})"


@dataclass
class SessionPage:
    """A page of sessions; pass `next_cursor` back for the next page (None at the end).

    `skipped` names the files met on the way that are not sessions (corrupt, empty, …).
    """

    items: list[SessionSummary] = field(default_factory=list)
    next_cursor: str | None = None
    skipped: list[SkippedFile] = field(default_factory=list)


_Key = tuple[int, str]  # (mtime_ns, file name): the sort key, newest first
_File = tuple[int, str, str, int]  # (mtime_ns, name, folder, size); sorts by key
# A folder listing is trusted only if it was taken this long after the folder last changed,
# so a file created in the same timestamp tick as the listing is never missed.
_RACY_NS = 1_000_000_000


def encode_cursor(key: _Key) -> str:
    """The opaque cursor for "everything older than this file"."""
    raw = f"{key[0]}:{key[1]}".encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> _Key:
    """The sort key inside a cursor.

    Raises:
        InvalidCursorError: If the cursor was not made by `encode_cursor`.
    """
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        mtime, name = raw.split(":", 1)
        return int(mtime), name
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidCursorError(
            "The session list cursor is not valid; list again from the first page."
        ) from None


def _stat_all(codex_home: Path, include_archived: bool, catalog: Catalog) -> list[_File]:
    """Every rollout file with its mtime and size, newest first.

    Folder listings come from the catalog while a folder's mtime is unchanged (creating,
    removing or renaming a file changes it); the files themselves are always stat'ed, since
    appending to a file does not touch its folder.
    """
    scanned_ns = time.time_ns()
    cached = catalog.get_dirs()
    changed: list[tuple[str, int, int, list[str]]] = []
    files: list[_File] = []
    stat = os.stat  # local names: this loop runs once per rollout file
    add = files.append
    for folder in session_folders(codex_home, include_archived):
        try:
            folder_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            folder_mtime = os.fstat(folder_fd).st_mtime_ns
            hit = cached.get(folder)
            if hit is not None and hit[0] == folder_mtime and hit[1] - folder_mtime > _RACY_NS:
                names = hit[2]
            else:
                names = rollout_names(folder)
                changed.append((folder, folder_mtime, scanned_ns, names))
            for name in names:
                try:
                    info = stat(name, dir_fd=folder_fd)  # no full path walk per file
                except OSError:
                    continue  # removed since the folder was listed
                add((info.st_mtime_ns, name, folder, info.st_size))
        finally:
            os.close(folder_fd)
    files.sort(reverse=True)
    catalog.put_dirs(changed)
    return files


def _same_dir(a: str, b: str) -> bool:
    return os.path.normpath(a) == os.path.normpath(b)


def _cwd_matcher(cwd: str | os.PathLike[str] | None) -> Callable[[str | None], bool]:
    if cwd is None:
        return lambda _c: True
    wanted = {os.path.normpath(os.fspath(cwd)), os.path.realpath(os.fspath(cwd))}
    return lambda candidate: candidate is not None and os.path.normpath(candidate) in wanted


def _summary(file: _File, head: Head, archived_dir: str) -> SessionSummary | None:
    if not head.preview:
        return None  # no user message yet: nothing to resume
    mtime_ns, name, folder, _size = file
    path = os.path.join(folder, name)
    parsed = parse_rollout_name(name)
    session_id = head.session_id or (parsed[1] if parsed else name)
    created = head.created_at
    if created is None and parsed is not None:
        try:
            created = datetime.strptime(parsed[0], "%Y-%m-%dT%H-%M-%S").isoformat()
        except ValueError:
            created = None  # a name with an impossible date, e.g. month 13
    return SessionSummary(
        id=session_id,
        path=path,
        created_at=created or "",
        updated_at=mtime_ns / 1e9,
        cwd=head.cwd,
        git_branch=head.git_branch,
        model_provider=head.model_provider,
        preview=head.preview,
        archived=_same_dir(os.path.dirname(path), archived_dir),
    )


def list_sessions(
    codex_home: Path,
    *,
    page_size: int = DEFAULT_PAGE_SIZE,
    cursor: str | None = None,
    cwd: str | os.PathLike[str] | None = None,
    provider: str | None = None,
    include_archived: bool = False,
    sources: Collection[str] | None = None,
    head_reader: HeadReader = read_head,
) -> SessionPage:
    """A page of recorded sessions, most recently updated first.

    Sessions without a user message are skipped. A session whose meta names no provider
    counts as the default provider (`openai`), as in the Codex CLI.

    Args:
        codex_home: The CODEX_HOME directory.
        page_size: Sessions per page.
        cursor: `next_cursor` of the previous page, or None for the first page.
        cwd: Only sessions started in this directory.
        provider: Only sessions of this model provider id.
        include_archived: Also list `archived_sessions/`.
        sources: Only sessions of these source kinds (e.g. `INTERACTIVE_SOURCES`); a
            session without one passes.
        head_reader: Reads a file's head (a seam for tests that count reads).

    Raises:
        InvalidCursorError: If `cursor` is not a cursor from an earlier page.
    """
    codex_home = Path(codex_home)
    after = decode_cursor(cursor) if cursor else None
    page = SessionPage()
    if not (codex_home / SESSIONS_DIR).is_dir() and not include_archived:
        return page
    catalog = Catalog(codex_home)
    try:
        _fill(
            page,
            catalog,
            _stat_all(codex_home, include_archived, catalog),
            after,
            page_size,
            _cwd_matcher(cwd),
            provider,
            sources,
            head_reader,
            os.fspath(codex_home / ARCHIVED_DIR),
        )
    finally:
        catalog.close()
    return page


def _fill(
    page: SessionPage,
    catalog: Catalog,
    files: list[_File],
    after: _Key | None,
    page_size: int,
    cwd_ok: Callable[[str | None], bool],
    provider: str | None,
    sources: Collection[str] | None,
    head_reader: HeadReader,
    archived_dir: str,
) -> None:
    """Add up to `page_size` matching sessions older than `after` to `page`."""
    index = 0
    if after is not None:
        while index < len(files) and files[index][:2] >= after:
            index += 1
    last_index = index
    fresh: list[tuple[str, int, int, Head]] = []
    while index < len(files) and len(page.items) < page_size:
        batch = files[index : index + _LOOKAHEAD]
        cached = catalog.get_many([os.path.join(f[2], f[1]) for f in batch])
        for offset, file in enumerate(batch):
            mtime_ns, name, folder, size = file
            path = os.path.join(folder, name)
            hit = cached.get(path)
            if hit is not None and hit[0] == size and hit[1] == mtime_ns:
                head = hit[2]
            else:
                head = head_reader(path)
                fresh.append((path, size, mtime_ns, head))
            last_index = index + offset
            if head.problem is not None:
                log.info("rollout %s is not a session: %s", path, head.problem)
                page.skipped.append(SkippedFile(path, head.problem))
                continue
            if not cwd_ok(head.cwd):
                continue
            if provider is not None and (head.model_provider or DEFAULT_PROVIDER) != provider:
                continue
            if sources is not None and head.source is not None and head.source not in sources:
                continue
            summary = _summary(file, head, archived_dir)
            if summary is not None:
                page.items.append(summary)
                if len(page.items) == page_size:
                    break
        index += len(batch)
    if last_index + 1 < len(files) and len(page.items) == page_size:
        page.next_cursor = encode_cursor((files[last_index][0], files[last_index][1]))
    if fresh:
        catalog.put_many(fresh)
        catalog.prune({os.path.join(f[2], f[1]) for f in files})
