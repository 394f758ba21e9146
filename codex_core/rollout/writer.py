"""The rollout's writer thread: one daemon thread per file takes lines off a queue and appends
each with a single `os.write` on an `O_APPEND` descriptor, so a crash leaves at most one torn
line. `flush(fsync=True)` (end of every turn) waits until everything queued so far is written
and synced, then lists the session in 0.169's state_5.sqlite. A write failure (full disk,
read-only CODEX_HOME) becomes one warning; later lines are dropped quietly.

`RolloutRecorder` (recorder.py) encodes the lines and queues them here.
"""

from __future__ import annotations

import atexit
import errno
import logging
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from codex_core.rollout.format import encode_line
from codex_core.rollout.git_info import collect_git_info
from codex_core.rollout.state_db import ThreadFacts, codex_home_of, register_thread

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


class RolloutWriter:
    """Appends one rollout file's queued lines from a background thread (`RolloutRecorder`
    is the one to create).

    `on_warning` may be called from the writer thread; it must be thread-safe (e.g.
    `list.append` or `loop.call_soon_threadsafe`). Warnings are also kept in `.warnings`.
    """

    facts: ThreadFacts | None = None
    """What the session index is told at each synced flush (None: not listed)."""

    def __init__(
        self,
        path: Path,
        fd: int | None,
        *,
        meta: dict[str, Any] | None,
        meta_ordinal: int | None,
        git_cwd: Path | None,
        on_warning: WarningCallback | None,
    ) -> None:
        """Start the writer on an already-open descriptor (none: disabled); `meta`, the
        session_meta line numbered `meta_ordinal`, is written first, with git facts for
        `git_cwd` gathered on the thread."""
        self.path = path
        self._index_warned = False
        self._meta_ordinal = meta_ordinal
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
