"""`codex app-server daemon start|restart|stop|version`: one app-server per CODEX_HOME.

As Codex 0.169 (observed): the daemon is `codex app-server --listen unix:// --managed-daemon`
on the control socket `$CODEX_HOME/app-server-control/app-server-control.sock`; `start`
starts it unless one answers there (`alreadyRunning`), `restart` replaces it, `stop` stops
it, `version` asks it; each prints one JSON object. Unlike 0.169 nothing is copied: the
managed codex is this installation's console script.

The daemon is detached: started through a short-lived launcher so that it is nobody's child,
in a new session (no controlling terminal), with `/` as its directory (it keeps no one's
directory busy) and its output in `$CODEX_HOME/log/app-server-daemon.log`. Starts are
serialized by a lock file; a daemon that does not answer, or runs another version, is stopped
and replaced; a stale socket is cleared by the new daemon (unix_socket.ControlSocket).
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from codex_core import __version__
from codex_core.private_files import private_mkdir
from codex_core.servers.app_server.daemon_pid import DaemonRecord, read_record
from codex_core.servers.app_server.listen import control_socket

START_LOCK = Path("app-server-control") / "app-server-startup.lock"
LOG_FILE = Path("log") / "app-server-daemon.log"
READY_TIMEOUT = 30.0
LOCK_TIMEOUT = 60.0
STOP_GRACE = 5.0

_LAUNCHER = (
    "import subprocess, sys\n"
    "child = subprocess.Popen(\n"
    "    sys.argv[1:], start_new_session=True, cwd='/', stdin=subprocess.DEVNULL, stdout=2\n"
    ")\n"
    "print(child.pid, flush=True)\n"
)
"""Starts the daemon in a new session and exits at once, so the daemon is reparented."""


class DaemonError(RuntimeError):
    """The daemon cannot be started, reached or stopped (one line for the user)."""


def managed_codex_path() -> Path:
    """The console script the daemon runs: this installation's `codex`."""
    beside = Path(sys.executable).parent / "codex"
    return beside if beside.exists() else Path(sys.argv[0]).absolute()


def _report(codex_home: Path, status: str, **fields: Any) -> dict[str, Any]:
    """0.169's JSON fields, in its order."""
    out: dict[str, Any] = {"status": status}
    if "backend" in fields:
        out["backend"] = fields.pop("backend")
    if "pid" in fields:
        out["pid"] = fields.pop("pid")
    out["managedCodexPath"] = str(managed_codex_path())
    out["managedCodexVersion"] = __version__
    out["socketPath"] = str(control_socket(codex_home))
    out["cliVersion"] = __version__
    out.update(fields)
    return out


def server_version(codex_home: Path, timeout: float = 5.0) -> str:
    """The version of the app-server answering on the control socket.

    Raises:
        DaemonError: Nothing answers there (0.169's `failed to connect to PATH: …`).
    """
    from codex_core.servers.app_server.remote import RemoteClient, RemoteError, parse_remote

    socket = control_socket(codex_home)
    if not socket.exists():
        raise DaemonError(f"failed to connect to {socket}: No such file or directory (os error 2)")
    try:
        client = RemoteClient(parse_remote("unix://", codex_home), None)
    except RemoteError as err:
        detail = str(err).rpartition("`: ")[2]
        raise DaemonError(f"failed to connect to {socket}: {detail}") from None
    try:
        agent = str(client.call("initialize", _hello(), timeout=timeout).get("userAgent", ""))
    except (RemoteError, AttributeError) as err:
        raise DaemonError(f"the app server at {socket} did not answer: {err}") from None
    finally:
        client.close()
    return agent.partition(" ")[0].partition("/")[2] or "unknown"


def _hello() -> dict[str, Any]:
    return {
        "clientInfo": {"name": "codex_daemon", "version": __version__},
        "capabilities": {"experimentalApi": True},
    }


def server_version_or_none(codex_home: Path) -> str | None:
    """The version of the app-server on the control socket; None when none answers."""
    try:
        return server_version(codex_home)
    except DaemonError:
        return None


@contextmanager
def _start_lock(codex_home: Path) -> Iterator[None]:
    """Serialize starts and stops of this CODEX_HOME's daemon."""
    path = codex_home / START_LOCK
    private_mkdir(path.parent)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise DaemonError(f"another codex holds {path}; try again") from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)


def start(codex_home: Path) -> dict[str, Any]:
    """Start the daemon unless one of this version answers; returns the JSON report."""
    with _start_lock(codex_home):
        record = read_record(codex_home)
        live = record if record is not None and record.alive() else None
        running = server_version_or_none(codex_home)
        if running == __version__:
            return _report(codex_home, "alreadyRunning", backend="pid", appServerVersion=running)
        if live is not None:  # another version, or hung: replace it
            _terminate(live)
        elif running is not None:
            raise DaemonError(
                f"an app server of codex {running} that this codex did not start listens on "
                f"{control_socket(codex_home)}; stop it first"
            )
        pid = _spawn(codex_home)
        return _report(codex_home, "started", backend="pid", pid=pid, appServerVersion=__version__)


def restart(codex_home: Path) -> dict[str, Any]:
    """Stop the daemon if it runs (running turns end), start a new one (0.169: `restarted`,
    also when none ran)."""
    with _start_lock(codex_home):
        record = read_record(codex_home)
        if record is not None and record.alive():
            _terminate(record)
        pid = _spawn(codex_home)
        return _report(
            codex_home, "restarted", backend="pid", pid=pid, appServerVersion=__version__
        )


def _spawn(codex_home: Path) -> int:
    log = codex_home / LOG_FILE
    private_mkdir(log.parent)
    argv = [
        str(managed_codex_path()),
        "app-server",
        "--listen",
        "unix://",
        "--managed-daemon",
    ]
    env = {**os.environ, "CODEX_HOME": str(codex_home)}
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
    try:  # the launcher's stderr (the daemon's stdout and stderr) is the log
        launcher = subprocess.run(
            [sys.executable, "-I", "-S", "-c", _LAUNCHER, *argv],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=fd,
            env=env,
            cwd="/",
            text=True,
            timeout=READY_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise DaemonError(f"could not start the app server daemon; see {log}") from None
    finally:
        os.close(fd)
    if launcher.returncode != 0 or not launcher.stdout.strip().isdigit():
        raise DaemonError(f"could not start the app server daemon; see {log}")
    pid = int(launcher.stdout.strip())
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if server_version_or_none(codex_home) == __version__:
            return pid
        if not _pid_alive(pid):
            raise DaemonError(f"the app server daemon exited at start; see {log}")
        time.sleep(0.05)
    raise DaemonError(
        f"the app server daemon did not answer within {READY_TIMEOUT:.0f} s; see {log}"
    )


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # our own exited child is a zombie until reaped; it is gone for our purpose
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return True
    return state != "Z"


def _terminate(record: DaemonRecord) -> None:
    """SIGTERM (twice: the second stops running turns too), then SIGKILL."""
    for sig, wait in (
        (signal.SIGTERM, STOP_GRACE),
        (signal.SIGTERM, STOP_GRACE),
        (signal.SIGKILL, 5.0),
    ):
        if not record.alive():
            return
        try:
            os.kill(record.pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and record.alive():
            time.sleep(0.05)
    if record.alive():
        raise DaemonError(f"the app server daemon (pid {record.pid}) did not stop")


def stop(codex_home: Path) -> dict[str, Any]:
    """Stop the daemon; returns the JSON report (`stopped` or `notRunning`)."""
    with _start_lock(codex_home):
        record = read_record(codex_home)
        if record is None or not record.alive():
            return _report(codex_home, "notRunning")
        _terminate(record)
        return _report(codex_home, "stopped", backend="pid")


def stop_recorded(codex_home: Path) -> bool:
    """Stop the recorded daemon without waiting for the start lock; whether one ran."""
    record = read_record(codex_home)
    if record is None or not record.alive():
        return False
    _terminate(record)
    return True


def version(codex_home: Path) -> dict[str, Any]:
    """The running daemon's report; raises DaemonError when none answers."""
    running = server_version(codex_home)
    return _report(codex_home, "running", backend="pid", appServerVersion=running)


def main(command: str) -> int:
    """`codex app-server daemon COMMAND`; prints the JSON report, returns the exit code."""
    from codex_core.frontend import CodexHomeError, find_codex_home

    actions = {"start": start, "restart": restart, "stop": stop, "version": version}
    try:
        report = actions[command](find_codex_home())
    except (DaemonError, CodexHomeError) as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        where = f" {err.filename}" if err.filename else ""
        print(f"Error: cannot use{where}: {err.strerror or err}", file=sys.stderr)
        return 1
    print(json.dumps(report, separators=(",", ":")), flush=True)
    return 0
