"""Stdio MCP servers started before the session loads the MCP SDK, so they boot meanwhile.

`codex exec` with a stdio server used to pay, one after the other: the session's imports,
the MCP SDK's import (hundreds of pydantic models), then the server's own start-up. Started
here as soon as the configuration is known, the server starts up on the other core while
codex imports; the session's transport (`codex_core.mcp.stdio`) then adopts the process
whose command, arguments, environment and working directory are exactly those it would
have launched, and launches its own otherwise. Whatever is not adopted is ended by
`discard_unclaimed` (its whole process group, as the transport would).

Nothing here imports the SDK: this module is on the path to the first model request.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from codex_core.mcp.launch import stdio_env
from codex_core.mcp.stderr_log import stderr_to_log

if TYPE_CHECKING:
    from anyio.abc import Process

    from codex_core.config.types import McpServerConfig

log = logging.getLogger(__name__)

SDK_INHERITED_ENV_VARS = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
"""What the SDK's `get_default_environment` passes on POSIX (checked against it by a test)."""
DISCARD_GRACE_SEC = 2.0

Launch = tuple[tuple[str, ...], tuple[tuple[str, str], ...], str | None]
"""(argv, environment items, working directory): what a stdio server is started with."""

_started: list[tuple[Launch, Process]] = []
"""Servers started early and not adopted yet (this process has one session at a time)."""
_started_at: float | None = None
"""`time.monotonic()` when the servers of `start_early` began to start, until a session's
MCP manager takes it (`take_start_time`)."""


def sdk_default_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The SDK's default environment of a stdio server (shell functions left out)."""
    return {
        key: value
        for key in SDK_INHERITED_ENV_VARS
        if (value := environ.get(key)) is not None and not value.startswith("()")
    }


def launch_key(argv: list[str], env: Mapping[str, str], cwd: str | Path | None) -> Launch:
    """What identifies a launch: a process is adopted only for an identical one."""
    return tuple(argv), tuple(sorted(env.items())), None if cwd is None else str(cwd)


def stdio_launch(config: McpServerConfig, environ: Mapping[str, str], session_cwd: str) -> Launch:
    """The launch `ServerConnection` and the stdio transport make for `config`."""
    assert config.command is not None
    env = {**sdk_default_environment(os.environ), **stdio_env(config, environ)}
    cwd = os.path.join(session_cwd, os.path.expanduser(config.cwd)) if config.cwd else None
    return launch_key([config.command, *config.args], env, cwd)


async def start_early(
    servers: Mapping[str, McpServerConfig], environ: Mapping[str, str], session_cwd: str
) -> None:
    """Start every enabled stdio server now; a failure is left for the session to report."""
    stdio = {
        name: config
        for name, config in servers.items()
        if config.enabled and config.command is not None and config.url is None
    }
    if not stdio:
        return
    import anyio

    global _started_at
    _started_at = time.monotonic()

    for name, config in stdio.items():
        launch = stdio_launch(config, environ, session_cwd)
        errlog = stderr_to_log(name)
        try:
            process = await anyio.open_process(
                list(launch[0]),
                env=dict(launch[1]),
                cwd=launch[2],
                stderr=errlog,
                start_new_session=True,
            )
        except OSError as err:  # the session's own launch fails the same way and says so
            log.debug("MCP server %s not started early: %s", name, err)
            errlog.close()
            continue
        errlog.close()  # the child has its copy
        _started.append((launch, process))


def take_start_time() -> float | None:
    """When the early servers began to start, for the first MCP manager that asks: the
    first model request's wait for servers counts from there, as 0.169's counts from its
    session's start (which is when ours start early). None when none were started early."""
    global _started_at
    started, _started_at = _started_at, None
    return started


def claim(argv: list[str], env: Mapping[str, str], cwd: str | Path | None) -> Process | None:
    """The early process started exactly so, if any (it is then the caller's)."""
    wanted = launch_key(argv, env, cwd)
    for index, (launch, process) in enumerate(_started):
        if launch == wanted and process.returncode is None:
            del _started[index]
            return process
    return None


async def discard_unclaimed() -> None:
    """End the early servers no session adopted: their process groups, then wait for them."""
    if not _started:
        return  # nothing was started early (no stdio server): anyio need not load
    import anyio

    while _started:
        _launch, process = _started.pop()
        with suppress(Exception):
            await process.stdin.aclose()  # type: ignore[union-attr]
        _signal_group(process.pid, signal.SIGTERM)
        with anyio.move_on_after(DISCARD_GRACE_SEC):
            await process.wait()
        _signal_group(process.pid, signal.SIGKILL)
        await process.aclose()


def _signal_group(pgid: int, signum: signal.Signals) -> None:
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)
