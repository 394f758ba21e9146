"""Running one hook command: the payload on stdin, bounded output, a timeout for the group.

The command runs through `/bin/sh -c` in the session's cwd with codex's environment, in a
process group of its own. Past its timeout, when the turn is interrupted, and after it
exits, the whole group is killed: no hook process outlives its run (0.169 leaves none).
Output beyond `OUTPUT_LIMIT` bytes per stream is read and dropped, so a hook that floods
cannot exhaust memory or stall on a full pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

OUTPUT_LIMIT = 1 << 20
SHELL = "/bin/sh"


@dataclass(frozen=True)
class RunResult:
    """How a hook process ended."""

    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool
    duration_ms: int
    error: str | None = None
    """Why it could not start (no such shell, a cwd that is gone)."""


async def run_hook_command(
    command: str, payload: bytes, cwd: Path, timeout: float, env: dict[str, str] | None = None
) -> RunResult:
    """Run `command` with `payload` on stdin; never raises for the command's own failures."""
    started = time.monotonic()
    try:
        proc = await _spawn(command, cwd, env)
    except OSError as err:
        return RunResult(None, "", "", False, 0, error=f"cannot start: {err.strerror or err}")
    assert proc.stdout is not None and proc.stderr is not None
    reads = asyncio.gather(_read_bounded(proc.stdout), _read_bounded(proc.stderr))
    timed_out = False
    try:
        await _feed(proc, payload)
        try:
            await asyncio.wait_for(asyncio.shield(proc.wait()), timeout)
        except TimeoutError:
            timed_out = True
    finally:
        _kill_group(proc.pid)
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        await asyncio.shield(_settle(proc, reads))
    out, errors = reads.result() if reads.done() and not reads.cancelled() else (b"", b"")
    elapsed = int((time.monotonic() - started) * 1000)
    code = None if timed_out else proc.returncode
    return RunResult(code, _text(out), _text(errors), timed_out, elapsed)


async def _spawn(command: str, cwd: Path, env: dict[str, str] | None) -> asyncio.subprocess.Process:
    """Start the hook. An interrupt during the start lets the start finish, then kills the
    group: cancelling `create_subprocess_exec` itself can leave it waiting forever for a
    child it never watched (seen on CPython 3.11)."""
    spawn = asyncio.ensure_future(
        asyncio.create_subprocess_exec(
            SHELL,
            "-c",
            command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=str(cwd),
            env=env,
            start_new_session=True,
        )
    )
    try:
        return await asyncio.shield(spawn)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            proc = await asyncio.wait_for(spawn, 5)
            _kill_group(proc.pid)
            if proc.stdin is not None:
                proc.stdin.close()
            await asyncio.wait_for(proc.wait(), 5)
        raise


async def _feed(proc: asyncio.subprocess.Process, payload: bytes) -> None:
    assert proc.stdin is not None
    try:
        proc.stdin.write(payload)
        await proc.stdin.drain()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the hook did not read its input: its choice
    finally:
        with contextlib.suppress(OSError):
            proc.stdin.close()


async def _read_bounded(stream: asyncio.StreamReader) -> bytes:
    kept = bytearray()
    while chunk := await stream.read(65536):
        if len(kept) < OUTPUT_LIMIT:
            kept += chunk[: OUTPUT_LIMIT - len(kept)]
    return bytes(kept)


async def _settle(
    proc: asyncio.subprocess.Process, reads: asyncio.Future[tuple[bytes, bytes]]
) -> None:
    """Reap the process and let the readers see end of file (bounded: the group is dead)."""
    with contextlib.suppress(TimeoutError, ProcessLookupError):
        await asyncio.wait_for(proc.wait(), 5)
    with contextlib.suppress(TimeoutError, Exception):
        await asyncio.wait_for(reads, 5)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")
