"""Long-lived commands for unified exec: spawned in a PTY (or on pipes), sandboxed like any other.

A `LiveProcess` outlives the tool call that started it: output arrives through a callback
as raw bytes, input is written on demand, and `kill()` ends the whole process group (under
bubblewrap that is the sandbox's pid namespace, so nothing the command started survives).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from codex_core.exec.params import ExecParams
from codex_core.exec.sandbox import SandboxType
from codex_core.exec.spawn import PipeProtocol, _Launch, kill_process_group
from codex_core.protocol.common import SandboxPolicy

log = logging.getLogger(__name__)

PTY_ROWS, PTY_COLS = 24, 80
READ_CHUNK = 64 * 1024

OutputSink = Callable[[bytes], None]


def _adopt_controlling_tty() -> None:  # pragma: no cover - runs in the child before exec
    """Child side, unsandboxed PTY: the fresh session takes the PTY on stdin as its terminal."""
    import fcntl
    import termios

    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class LiveProcess:
    """A running command whose output is streamed and whose stdin stays open (PTY only)."""

    def __init__(
        self,
        transport: asyncio.SubprocessTransport,
        protocol: PipeProtocol,
        master_fd: int | None,
        launch: _Launch,
    ) -> None:
        """Wrap a started process; use `spawn_live` to create one."""
        self._transport = transport
        self._protocol = protocol
        self._master = master_fd
        self._launch = launch
        self.pid = transport.get_pid()
        self.tty = master_fd is not None
        self._eof: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if master_fd is None:
            protocol.closed.add_done_callback(lambda _f: self._set_eof())
        else:
            asyncio.get_running_loop().add_reader(master_fd, self._read_master)

    def _set_eof(self) -> None:
        if not self._eof.done():
            self._eof.set_result(None)

    def _read_master(self) -> None:
        assert self._master is not None
        try:
            data = os.read(self._master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:  # EIO: every holder of the PTY's other side has gone
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self._master)
            self._set_eof()
            return
        self._protocol.on_data(self._master, data)

    @property
    def exit_code(self) -> int | None:
        """The exit code once the process has exited (128+N after signal N), else None."""
        code = self._transport.get_returncode()
        if code is None:
            return None
        return 128 - code if code < 0 else code

    @property
    def has_exited(self) -> bool:
        """Whether the direct child has exited."""
        return self._protocol.exited.done()

    async def wait(self, drain_s: float = 0.1) -> int:
        """Wait for the exit, then up to `drain_s` for output still in flight; the exit code."""
        await asyncio.shield(self._protocol.exited)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._eof), drain_s)
        self._finish()
        code = self.exit_code
        return 0 if code is None else code

    def write(self, data: bytes) -> bool:
        """Type `data` into the terminal; False when this process has no open stdin."""
        if self._master is None or self.has_exited:
            return False
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._master, view) :]
            except BlockingIOError:
                continue
            except OSError:
                return False
        return True

    def kill(self) -> None:
        """SIGKILL the process group and release the terminal."""
        if not self.has_exited:
            kill_process_group(self.pid)
        self._finish()

    def _finish(self) -> None:
        if self._master is not None:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(self._master)
            with contextlib.suppress(OSError):
                os.close(self._master)
            self._master = None
            self._set_eof()
        self._launch.finish()
        if self.has_exited:
            self._transport.close()


async def spawn_live(
    params: ExecParams,
    sandbox: SandboxType,
    policy: SandboxPolicy,
    sandbox_cwd: Path,
    *,
    tty: bool,
    on_output: OutputSink,
) -> LiveProcess:
    """Start `params.command` in `sandbox`, in a fresh PTY (`tty`) or with stdin on /dev/null.

    With a PTY, stdout and stderr share the terminal; without one both pipes feed
    `on_output`. The command leads its own session; the PTY becomes its controlling
    terminal (inside the Linux sandbox the helper adopts it after bubblewrap's new
    session), so job control and `isatty` work while the user's terminal stays out of reach.

    Raises:
        OSError: the command (or the sandbox helper) could not be started.
    """
    loop = asyncio.get_running_loop()
    launch = _Launch(params, sandbox, policy, sandbox_cwd, controlling_tty=tty)
    master: int | None = None
    slave: int | None = None
    try:
        if tty:
            master, slave = os.openpty()
            import termios

            termios.tcsetwinsize(slave, (PTY_ROWS, PTY_COLS))
            os.set_blocking(master, False)
        stdin = slave if slave is not None else subprocess.DEVNULL
        output = slave if slave is not None else subprocess.PIPE
        transport, protocol = await loop.subprocess_exec(
            lambda: PipeProtocol(lambda _fd, raw: on_output(raw), loop),
            *launch.argv,
            cwd=params.cwd,
            env=launch.env,
            start_new_session=True,
            pass_fds=launch.pass_fds,
            preexec_fn=_adopt_controlling_tty if tty and sandbox != "linux" else None,
            stdin=stdin,
            stdout=output,
            stderr=output,
        )
    except BaseException:
        launch.finish()
        if master is not None:
            os.close(master)
        raise
    finally:
        launch.close_env_fd()
        if slave is not None:
            os.close(slave)
    return LiveProcess(transport, protocol, master, launch)
