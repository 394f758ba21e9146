"""Shell snapshots: run the login shell once per session, replay it for every `bash -lc`.

A login shell sources /etc/profile, ~/.profile, ~/.bashrc; with pyenv, nvm or conda there
that costs 100–500 ms, and models send every command as `bash -lc …`. As the Codex CLI
does, the session runs the login shell once in the background and records what it set up:
the variables it added or changed, its functions, aliases and `shopt` options. Later
`bash -lc SCRIPT` commands run as `bash -c 'eval "$CODEX_SHELL_SNAPSHOT"; unset …; SCRIPT'`
with the snapshot in that variable: SCRIPT keeps its line numbers in bash's messages, and
the snapshot never goes through a file sandboxed code could rewrite. Until it is ready,
commands run as sent.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import shlex

log = logging.getLogger(__name__)

CAPTURE_TIMEOUT_SECONDS = 10.0
NICE = 10
"""How much lower the login shell's CPU priority is than codex's (see `_yield_cpu`)."""
STOP_WAIT_SECONDS = 2.0
"""How long a stopped capture waits for its output to close (a child that left the shell's
process group may hold it)."""
ENV_VAR = "CODEX_SHELL_SNAPSHOT"
_MARK = "__codex_snapshot_declarations__"
_CAPTURE = f"env -0; printf '\\0{_MARK}\\0'; alias -p; declare -f; shopt -p"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_NOT_REPLAYED = frozenset(
    {"_", "SHLVL", "PWD", "OLDPWD", "BASHOPTS", "SHELLOPTS", "BASH_VERSINFO", "EUID", "PPID"}
    | {"UID", "BASH_EXECUTION_STRING", "BASH_ARGV0", "LINENO", "RANDOM", "SECONDS"}
)
"""Per-process or read-only variables: replaying them would be wrong or an error."""


class ShellSnapshot:
    """One session's login-shell snapshot; `wrap` rewrites `bash -lc` commands once ready."""

    def __init__(self, env: dict[str, str], shell: str = "bash") -> None:
        self._env = dict(env)
        self._shell = shell
        self._script: str | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def script(self) -> str | None:
        """The replay script, once captured (None before, or when capturing failed)."""
        return self._script

    def start(self) -> None:
        """Capture in the background (call from the running event loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._capture())

    async def aclose(self) -> None:
        """Stop a capture still running (its shell is killed)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass

    def apply(self, argv: list[str], env: dict[str, str]) -> tuple[list[str], dict[str, str]]:
        """argv and environment to spawn: `bash -lc` replays the snapshot instead of logging in."""
        if (
            self._script is None
            or len(argv) != 3
            or os.path.basename(argv[0]) != self._shell
            or argv[1] != "-lc"
        ):
            return argv, env
        replay = f'eval "${ENV_VAR}"; unset {ENV_VAR}; '
        return [argv[0], "-c", replay + argv[2]], {**env, ENV_VAR: self._script}

    async def _capture(self) -> None:
        try:
            process = await asyncio.create_subprocess_exec(
                self._shell,
                "-lc",
                _CAPTURE,
                env=self._env,
                # Not the workspace: nothing sandboxed code left there may be sourced by a
                # login script that reads relative paths (the capture runs unsandboxed).
                cwd=self._env.get("HOME") or os.path.expanduser("~"),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as err:
            log.info("no shell snapshot: %s", err)
            return
        _yield_cpu(process.pid)
        try:
            out, _ = await asyncio.wait_for(process.communicate(), CAPTURE_TIMEOUT_SECONDS)
        except (TimeoutError, asyncio.CancelledError) as err:
            await _stop(process)
            if isinstance(err, asyncio.CancelledError):
                raise
            log.info("no shell snapshot: the login shell took over %ss", CAPTURE_TIMEOUT_SECONDS)
            return
        if process.returncode == 0:
            self._script = build_script(self._env, out.decode(errors="surrogateescape"))
        else:
            log.info("no shell snapshot: the login shell exited %s", process.returncode)


def _yield_cpu(pid: int) -> None:
    """Run the login shell (and what its profile forks: `pyenv init`, `nvm`, `conda`) at a
    lower CPU priority: it runs beside the session's first model request, and on a machine
    with few cores a heavy profile took the CPU that request needed. Nothing it captures
    depends on its priority; the first command waits for it no longer than before (it runs as
    sent until the snapshot is ready)."""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, min(19, os.getpriority(os.PRIO_PROCESS, 0) + NICE))
    except OSError:  # already gone, or not allowed: it runs at the normal priority
        pass


async def _stop(process: asyncio.subprocess.Process) -> None:
    """Kill the login shell, then wait for it briefly — never what its profile started.

    A profile's background child (`pyenv rehash`, an agent) keeps the shell's stdout open,
    and asyncio's `wait()` returns only once every pipe is closed: waiting for it left
    `codex exec` sitting at its end as long as that child lived (~60 s seen), so the wait is
    bounded. The child itself is left to finish: killed midway it may leave its work half
    done on the user's machine (a SIGKILLed `pyenv rehash` leaves its lock file behind, and
    every later login shell then waits 60 s for it).
    """
    if process.returncode is None:
        process.kill()
    try:
        await asyncio.wait_for(asyncio.shield(process.wait()), STOP_WAIT_SECONDS)
    except TimeoutError:
        log.info("shell snapshot: a process the login shell left keeps its output open")
        # Stop reading that output (as codex's own exit would): the transport would otherwise
        # outlive the event loop. Its close() kills only a shell not yet reaped.
        transport = getattr(process, "_transport", None)
        if transport is not None:
            transport.close()


def build_script(base_env: dict[str, str], captured: str) -> str | None:
    """The replay script from the capture's output; None if it is not a capture."""
    environment, mark, declarations = captured.partition(f"\0{_MARK}\0")
    if not mark:
        return None
    after: dict[str, str] = {}
    for entry in environment.split("\0"):
        name, equals, value = entry.partition("=")
        if equals and _NAME.match(name) and name not in _NOT_REPLAYED:
            after[name] = value
    lines = [
        f"export {name}={shlex.quote(value)}"
        for name, value in after.items()
        if base_env.get(name) != value
    ]
    lines += [
        f"unset {name}"
        for name in base_env
        if name not in after and _NAME.match(name) and name not in _NOT_REPLAYED
    ]
    lines += [
        line
        for line in declarations.splitlines()
        if not line.startswith(("shopt -s login_shell", "shopt -u login_shell"))
    ]
    return "\n".join(lines) + "\n"
