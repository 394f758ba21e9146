"""RolloutRecorder: appends a session's rollout lines from a background writer thread.

`record_*` only encodes a line and puts it on a queue, so the session's event loop never
waits for the disk. One daemon thread per recorder takes lines off the queue and appends each
with a single `os.write` on an `O_APPEND` descriptor, so a crash leaves at most one torn line.
`flush(fsync=True)` (end of every turn) waits until everything queued so far is written and
synced. A write failure (full disk, read-only CODEX_HOME) becomes one warning; later lines are
dropped quietly.
"""

from __future__ import annotations

import atexit
import errno
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codex_core.private_files import private_mkdir
from codex_core.rollout.format import (
    encode_line,
    is_persisted_event,
    rollout_path,
    utc_timestamp,
)
from codex_core.rollout.git_info import collect_git_info
from codex_core.rollout.layout import (
    PAGINATED,
    Layout,
    detect_layout,
    new_session_layout,
)
from codex_core.rollout.state_db import (
    ThreadFacts,
    codex_home_of,
    facts_from_meta,
    register_thread,
)

if TYPE_CHECKING:
    from codex_core.items import Event

log = logging.getLogger(__name__)

WarningCallback = Callable[[str], None]
_EXIT_DRAIN_SECONDS = 2.0


@dataclass(frozen=True)
class _Flush:
    """A barrier: resolve `done` once every earlier line is written (and synced if `fsync`).

    `facts`, when given, are registered in 0.169's session index after the sync.
    """

    fsync: bool
    done: Future[None]
    facts: ThreadFacts | None = None


@dataclass(frozen=True)
class _Stop:
    """Write everything queued, sync, close, then resolve `done`."""

    done: Future[None]


_Job = bytes | _Flush | _Stop


def _resolve(done: Future[None]) -> None:
    """Complete a job's future unless its waiter gave up (a cancelled flush must not kill the writer)."""
    try:
        done.set_result(None)
    except InvalidStateError:
        pass


def _problem(err: OSError) -> str:
    if err.errno == errno.ENOSPC:
        return "the disk is full"
    if err.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "its folder is not writable"
    return err.strerror or str(err)


class RolloutRecorder:
    """Writes one rollout file. Create with `create()` (new session) or `resume()` (append).

    `on_warning` may be called from the writer thread; it must be thread-safe (e.g.
    `list.append` or `loop.call_soon_threadsafe`). Warnings are also kept in `.warnings`.
    """

    def __init__(
        self,
        path: Path,
        fd: int | None,
        *,
        meta: dict[str, Any] | None = None,
        git_cwd: Path | None = None,
        on_warning: WarningCallback | None = None,
        layout: Layout | None = None,
    ) -> None:
        """Use `create()` or `resume()`; this wires an already-open descriptor to a writer."""
        self.path = path
        self.layout = layout if layout is not None else Layout()
        self.facts = facts_from_meta(path, meta)
        self._index_warned = False
        # The session_meta is written by the writer thread (after git facts) but numbered first.
        self._meta_ordinal = self.layout.next_ordinal if meta is not None else None
        if self._meta_ordinal is not None:
            self.layout.next_ordinal = self._meta_ordinal + 1
        self.warnings: list[str] = []
        self._fd = fd
        self._meta = meta
        self._git_cwd = git_cwd
        self._on_warning = on_warning
        self._failed = fd is None
        self._git: dict[str, Any] | None = None
        self._warned = False
        self._closed = False
        self._queue: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=f"rollout-{path.name}", daemon=True)
        if fd is not None:
            self._thread.start()
            atexit.register(self._drain_at_exit)

    # ----------------------------------------------------------------- construction

    @classmethod
    def create(
        cls,
        codex_home: Path,
        session_id: str,
        cwd: Path,
        *,
        originator: str,
        cli_version: str,
        source: str,
        model_provider: str,
        thread_source: str = "user",
        instructions: str | None = None,
        on_warning: WarningCallback | None = None,
        now: float | None = None,
        layout: str = "0.169",
    ) -> RolloutRecorder:
        """Start `sessions/YYYY/MM/DD/rollout-<local time>-<id>.jsonl` for a new session.

        The first line is `session_meta`; git facts for `cwd` are gathered on the writer
        thread. If the file cannot be created, the recorder is returned disabled with one
        warning instead of raising. New files use Codex 0.169's layout (numbered lines,
        `item_completed` events) unless `layout="legacy"`.

        Args:
            codex_home: The CODEX_HOME directory.
            session_id: The session's UUID.
            cwd: The session's working directory.
            originator: Which program wrote the rollout.
            cli_version: That program's version.
            source: `cli`, `exec`, `vscode` or `mcp`.
            thread_source: Who started the thread (`user`, or what `--thread-source` says);
                Codex 0.169's layout records it after `source`.
            model_provider: The model provider id.
            instructions: Base instructions, if the session overrides them.
            on_warning: Called once with a sentence if writing fails.
            now: Creation time (seconds since the epoch); defaults to the current time.
            layout: `"0.169"` (the default) or `"legacy"` (no ordinals, legacy events).
        """
        moment = time.time() if now is None else now
        path = rollout_path(codex_home, session_id, moment)
        current = layout != "legacy"
        lines = new_session_layout(session_id, str(cwd)) if current else Layout()
        meta: dict[str, Any] = {
            **({"session_id": session_id} if current else {}),
            "id": session_id,
            "timestamp": utc_timestamp(moment),
            "cwd": str(cwd),
            "originator": originator,
            "cli_version": cli_version,
            "instructions": instructions,
            "source": source,
            **({"thread_source": thread_source} if current else {}),
            "model_provider": model_provider,
            **({"history_mode": PAGINATED} if current else {}),
        }
        try:
            private_mkdir(path.parent)
            fd: int | None = os.open(
                path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC, 0o600
            )
        except OSError as err:
            fd = None
            failure: OSError | None = err
        else:
            failure = None
        recorder = cls(path, fd, meta=meta, git_cwd=Path(cwd), on_warning=on_warning, layout=lines)
        if failure is not None:
            recorder._warn(failure)
        return recorder

    @classmethod
    def resume(cls, path: Path, on_warning: WarningCallback | None = None) -> RolloutRecorder:
        """Reopen an existing rollout and append to it.

        New lines follow the file's own layout (`layout.detect_layout`): numbered after its
        last ordinal and recorded as `item_completed` events in 0.169 files, unnumbered legacy
        events in older ones. A torn last line left by a crash is terminated first so new
        lines stay readable. If the file cannot be opened for appending, the recorder is
        returned disabled with one warning.
        """
        try:
            layout = detect_layout(Path(path))
            fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
        except OSError as err:
            recorder = cls(Path(path), None, on_warning=on_warning)
            recorder._warn(err)
            return recorder
        return cls(Path(path), fd, on_warning=on_warning, layout=layout)

    # ----------------------------------------------------------------- recording

    def record_items(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        """Queue rollout lines given as (line type, payload); never waits for the disk."""
        if self._closed or self._failed:
            return
        for given_type, given in items:
            if self.facts is not None:
                self.facts.observe(given_type, given)
            for line_type, payload in self.layout.lines_for(given_type, given):
                self._put(line_type, payload)

    def _put(self, line_type: str, payload: dict[str, Any]) -> None:
        # Encode now (numbered in call order): the caller may mutate its dicts afterwards.
        try:
            line = self.layout.encode(line_type, payload)
        except (TypeError, ValueError) as err:  # a bug upstream must not end the session
            log.error("rollout %s: dropped a %s line: %s", self.path, line_type, err)
            return
        self._queue.put(line)

    def record_response_items(self, items: list[dict[str, Any]]) -> None:
        """Queue Responses API items (wire dicts) as `response_item` lines."""
        self.record_items([("response_item", item) for item in items])

    def record_event(self, event: Event | dict[str, Any]) -> None:
        """Queue a session event in the file's layout (see `Layout.event_lines`).

        Args:
            event: The event with its submission id, or an EventMsg's wire dict (its turn
                then has no id).
        """
        if self._closed or self._failed:
            return
        if isinstance(event, dict):
            from codex_core.items import Event
            from codex_core.protocol import parse_event_msg

            msg = parse_event_msg(event)
            if msg is None:
                return
            event = Event(id="", msg=msg)
        wire = event.msg.to_wire() if is_persisted_event(event.msg.type) else None
        if self.facts is not None and wire is not None:
            self.facts.observe("event_msg", wire)
        for line_type, payload in self.layout.event_lines(event, wire):
            self._put(line_type, payload)

    # ----------------------------------------------------------------- flushing

    def _submit(self, job_for: Callable[[Future[None]], _Job]) -> Future[None]:
        done: Future[None] = Future()
        if self._closed or not self._thread.is_alive():
            done.set_result(None)
        else:
            self._queue.put(job_for(done))
        return done

    async def flush(self, fsync: bool = False) -> None:
        """Wait until every queued line is written; with `fsync`, also synced to disk."""
        import asyncio  # imported here: listing code loads this module without an event loop

        facts = replace(self.facts) if fsync and self.facts is not None else None
        await asyncio.wrap_future(self._submit(lambda done: _Flush(fsync, done, facts)))

    def flush_sync(self, fsync: bool = False, timeout: float | None = None) -> None:
        """Blocking `flush`, for code that is not running in an event loop."""
        self._submit(lambda done: _Flush(fsync, done)).result(timeout)

    async def shutdown(self) -> None:
        """Write and sync everything queued, then close the file; later records are dropped."""
        import asyncio

        done = self._submit(_Stop)
        self._closed = True
        await asyncio.wrap_future(done)
        atexit.unregister(self._drain_at_exit)

    def shutdown_sync(self, timeout: float | None = None) -> None:
        """Blocking `shutdown`."""
        done = self._submit(_Stop)
        self._closed = True
        done.result(timeout)
        atexit.unregister(self._drain_at_exit)

    def _drain_at_exit(self) -> None:
        """At interpreter exit, give the daemon writer a moment to finish queued lines."""
        if not self._closed:
            try:
                self.shutdown_sync(timeout=_EXIT_DRAIN_SECONDS)
            except TimeoutError:
                log.warning("rollout %s: gave up waiting for the writer at exit", self.path)

    # ----------------------------------------------------------------- writer thread

    def _run(self) -> None:
        self._terminate_torn_tail()
        if self._meta is not None:
            meta = dict(self._meta)
            git = collect_git_info(self._git_cwd) if self._git_cwd is not None else None
            if git:
                meta["git"] = git
                self._git = git
            self._write(encode_line("session_meta", meta, ordinal=self._meta_ordinal))
        while True:
            job = self._queue.get()
            if isinstance(job, bytes):
                self._write(job)
            elif isinstance(job, _Flush):
                if job.fsync:
                    self._sync()
                if job.facts is not None:
                    self._register(job.facts)
                _resolve(job.done)
            else:
                self._sync()
                self._close_fd()
                _resolve(job.done)
                return

    def _register(self, facts: ThreadFacts) -> None:
        """List the session in 0.169's state_5.sqlite when there is one (writer thread)."""
        home = codex_home_of(self.path)
        if home is None or self._failed or not facts.first_user_message and not facts.id:
            return
        if self._git is not None:
            facts.git = self._git
        try:
            register_thread(home, facts)
        except Exception as err:  # never let the index cost the rollout: warn once, go on
            if not self._index_warned:
                self._index_warned = True
                message = (
                    f"This session is not listed in Codex's resume picker: {home}/state_5.sqlite "
                    f"could not be updated ({err}); `codex resume` still finds it."
                )
                log.warning(message)
                if self._on_warning is not None:
                    self._on_warning(message)

    def _terminate_torn_tail(self) -> None:
        """If the file ends mid-line (a crash), end that line so the next one parses."""
        if self._fd is None or self._meta is not None:
            return
        try:
            size = os.fstat(self._fd).st_size
            if size > 0:
                with open(self.path, "rb") as existing:
                    existing.seek(size - 1)
                    if existing.read(1) != b"\n":
                        self._write(b"\n")
        except OSError as err:
            log.debug("rollout %s: cannot inspect the last line: %s", self.path, err)

    def _write(self, data: bytes) -> None:
        if self._failed or self._fd is None:
            return
        try:
            written = os.write(self._fd, data)
            while written < len(data):  # a short write only happens when space runs out
                written += os.write(self._fd, data[written:])
        except OSError as err:
            self._warn(err)
            self._close_fd()

    def _sync(self) -> None:
        if self._failed or self._fd is None:
            return
        try:
            os.fsync(self._fd)
        except OSError as err:
            if err.errno != errno.EINVAL:  # special files (pipes, /dev/*) cannot be synced
                self._warn(err)
                self._close_fd()

    def _close_fd(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None

    def _warn(self, err: OSError) -> None:
        """Report the first failure once; after it every line is dropped."""
        self._failed = True
        if self._warned:
            return
        self._warned = True
        message = (
            f"This session cannot be saved to {self.path} because {_problem(err)}; "
            "free some disk space or set CODEX_HOME to a writable folder to keep future sessions."
        )
        log.warning("%s (%s)", message, err)
        self.warnings.append(message)
        if self._on_warning is not None:
            try:
                self._on_warning(message)
            except Exception:  # a broken callback must not kill the writer
                log.exception("rollout warning callback failed")
