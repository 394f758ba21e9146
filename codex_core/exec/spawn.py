"""Spawning a command (sandboxed or not) with streaming output, caps, timeout and cancel."""

from __future__ import annotations

import asyncio
import codecs
import logging
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from codex_core.exec.output import CappedText
from codex_core.exec.params import ExecParams, ExecResult
from codex_core.exec.sandbox import (
    SandboxType,
    helper_policy,
    is_likely_sandbox_denied,
    linux_launch_plan,
    sandbox_argv,
    sandbox_env,
)
from codex_core.protocol.common import SandboxPolicy
from sandbox_helper.launch import NO_USERNS_WARNING, LaunchPlan, env_memfd

log = logging.getLogger(__name__)

StreamName = Literal["stdout", "stderr"]
OutputCallback = Callable[[StreamName, str], None]

TIMEOUT_EXIT_CODE = 124
# After the direct child exits, how long a grandchild may keep our pipes open before we
# stop reading (e.g. `sleep 100 &` inherits stdout).
PIPE_GRACE_S = 0.25


class _Sink:
    """Decodes chunks per stream, feeds the callback and the capped buffers."""

    def __init__(self, on_output: OutputCallback | None) -> None:
        self.on_output = on_output
        self.decoders = {
            name: codecs.getincrementaldecoder("utf-8")(errors="replace")
            for name in ("stdout", "stderr")
        }
        self.streams = {"stdout": CappedText(), "stderr": CappedText()}
        self.aggregated = CappedText()

    def feed(self, name: StreamName, data: bytes, final: bool = False) -> None:
        text = self.decoders[name].decode(data, final=final)
        if not text:
            return
        self.streams[name].append(text)
        self.aggregated.append(text)
        if self.on_output is not None:
            try:
                self.on_output(name, text)
            except Exception:  # a broken listener must not lose the command's output
                log.exception("exec output callback failed")


class PipeProtocol(asyncio.SubprocessProtocol):
    """Hands each pipe chunk (as bytes, with its fd) to `on_data`; `exited` and `closed`
    resolve when the process exits and when its pipes are closed."""

    def __init__(
        self, on_data: Callable[[int, bytes], None], loop: asyncio.AbstractEventLoop
    ) -> None:
        self.on_data = on_data
        self.exited: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        self.on_data(fd, data.encode() if isinstance(data, str) else data)

    def process_exited(self) -> None:
        if not self.exited.done():
            self.exited.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


def _feed_stdin(transport: asyncio.SubprocessTransport, data: bytes) -> None:
    """Queue `data` on the child's stdin and close it (the write side buffers, never blocks)."""
    pipe = transport.get_pipe_transport(0)
    if pipe is None:
        return
    assert isinstance(pipe, asyncio.WriteTransport)
    try:
        pipe.write(data)
        pipe.write_eof()
    except (BrokenPipeError, ConnectionResetError):  # the command exited without reading
        pass


class _Launch:
    """argv, environment and inherited fds for one command, plus what to tidy afterwards."""

    warned_no_userns = False

    def __init__(
        self,
        params: ExecParams,
        sandbox: SandboxType,
        policy: SandboxPolicy,
        cwd: Path,
        *,
        controlling_tty: bool = False,
    ) -> None:
        """Plan the launch; `controlling_tty` asks the Linux helper to adopt the PTY on stdin."""
        helper = helper_policy(policy)
        env = sandbox_env(params.env, sandbox, helper)
        self.env_fd: int | None = None
        self.file_fds: tuple[int, ...] = ()
        self.plan: LaunchPlan | None = None
        if sandbox != "linux":
            self.argv = sandbox_argv(
                params.command,
                sandbox,
                helper,
                cwd,
                params.env,
                writable_files=params.writable_files,
            )
            self.env = env
            return
        self.env_fd = env_memfd(env)
        try:
            plan = linux_launch_plan(
                params.command,
                helper,
                cwd,
                env,
                self.env_fd,
                controlling_tty=controlling_tty,
                writable_files=params.writable_files,
            )
        except OSError:  # e.g. a protected name that is a symlink to nothing
            self.close_env_fd()
            raise
        self.file_fds = tuple(fd for fd, _ in params.writable_files)
        if not plan.uses_bwrap and not _Launch.warned_no_userns:
            _Launch.warned_no_userns = True
            log.warning(NO_USERNS_WARNING)
        self.argv, self.env = plan.argv, {}
        self.plan = plan

    @property
    def pass_fds(self) -> tuple[int, ...]:
        return self.file_fds + (() if self.env_fd is None else (self.env_fd,))

    def close_env_fd(self) -> None:
        if self.env_fd is not None:
            os.close(self.env_fd)
            self.env_fd = None

    def finish(self) -> None:
        """Close the env fd and give up the sandbox's placeholders (the sandbox has ended)."""
        self.close_env_fd()
        if self.plan is not None:
            self.plan.release()


def kill_process_group(pgid: int) -> None:
    """SIGKILL every process in the group (the command and everything it started)."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


async def run_exec(
    params: ExecParams,
    sandbox: SandboxType,
    policy: SandboxPolicy,
    sandbox_cwd: Path,
    on_output: OutputCallback | None = None,
    codex_home: Path | None = None,
) -> ExecResult:
    """Run `params.command` inside `sandbox`, streaming decoded output to `on_output`.

    The command gets its own session (process group) and /dev/null as stdin. On timeout
    or when the awaiting task is cancelled, the whole group is SIGKILLed; cancellation is
    re-raised after the kill. Under bubblewrap that kills the sandbox's pid namespace
    (`--die-with-parent`), so nothing the command started survives it; the Linux sandbox
    is started with an empty environment and gets the command's on an inherited memfd.

    Raises:
        OSError: the command (or the sandbox helper) could not be started.
    """
    del codex_home  # nothing is installed under CODEX_HOME any more
    launch = _Launch(params, sandbox, policy, sandbox_cwd)
    try:
        return await _run(params, sandbox, launch, on_output)
    finally:
        launch.finish()


async def _run(
    params: ExecParams, sandbox: SandboxType, launch: _Launch, on_output: OutputCallback | None
) -> ExecResult:
    loop = asyncio.get_running_loop()
    sink = _Sink(on_output)
    started = time.monotonic()
    transport, protocol = await loop.subprocess_exec(
        lambda: PipeProtocol(
            lambda fd, raw: sink.feed("stdout" if fd == 1 else "stderr", raw), loop
        ),
        *launch.argv,
        stdin=subprocess.DEVNULL if params.stdin is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=params.cwd,
        env=launch.env,
        start_new_session=True,
        pass_fds=launch.pass_fds,
    )
    launch.close_env_fd()
    pid = transport.get_pid()
    if params.stdin is not None:
        _feed_stdin(transport, params.stdin)
    timed_out = False
    try:
        timeout_s = params.timeout_ms / 1000 if params.timeout_ms is not None else None
        done, _ = await asyncio.wait([protocol.exited], timeout=timeout_s)
        if not done:
            timed_out = True
            kill_process_group(pid)
            await protocol.exited
        await asyncio.wait([protocol.closed], timeout=PIPE_GRACE_S)
    except asyncio.CancelledError:
        kill_process_group(pid)
        transport.close()
        raise
    transport.close()
    sink.feed("stdout", b"", final=True)
    sink.feed("stderr", b"", final=True)
    returncode = transport.get_returncode()
    raw_signal = -returncode if returncode is not None and returncode < 0 else None
    exit_code = 128 + raw_signal if raw_signal is not None else (returncode or 0)
    stdout = sink.streams["stdout"].text()
    stderr = sink.streams["stderr"].text()
    aggregated = sink.aggregated.text()
    if timed_out:
        exit_code = TIMEOUT_EXIT_CODE
        notice = f"command timed out after {params.timeout_ms} ms\n"
        sep = "" if not aggregated or aggregated.endswith("\n") else "\n"
        aggregated += sep + notice
        stderr += ("" if not stderr or stderr.endswith("\n") else "\n") + notice
    denied = not timed_out and is_likely_sandbox_denied(
        sandbox, exit_code, raw_signal, stderr, stdout
    )
    return ExecResult(
        exit_code=exit_code,
        stdout=stdout,
        stderr=stderr,
        aggregated_output=aggregated,
        duration_ms=int((time.monotonic() - started) * 1000),
        timed_out=timed_out,
        sandbox_denied=denied,
    )
