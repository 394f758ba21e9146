"""The managed daemon's pid record: `$CODEX_HOME/app-server-daemon/daemon.pid`.

Written by the daemon itself once its socket listens, removed when it stops. Besides the pid
it keeps the process's identity (boot id and start time in clock ticks, as Codex 0.169
records them), so a pid the kernel has since given to another process is never signalled
(without procfs, as on macOS, only the pid is checked), and the version of codex the daemon
runs, so a daemon of another version can be replaced.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from codex_core.private_files import private_mkdir

STATE_DIR = "app-server-daemon"
PID_FILE = "daemon.pid"


_PROC = Path("/proc/self/stat")


def pid_path(codex_home: Path) -> Path:
    """Where the record lives."""
    return codex_home / STATE_DIR / PID_FILE


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def _start_ticks(pid: int) -> int | None:
    """The process's start time in clock ticks since boot (None: no such process, or one
    that has exited and waits to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after the last ")".
    fields = stat.rpartition(")")[2].split()
    try:
        return None if fields[0] in ("Z", "X") else int(fields[19])  # fields 3 and 22
    except (IndexError, ValueError):
        return None


@dataclass(frozen=True)
class DaemonRecord:
    """A daemon as its record describes it."""

    pid: int
    start_ticks: int
    boot_id: str
    version: str

    def alive(self) -> bool:
        """Whether that very process still runs (not another one under a reused pid)."""
        if not _PROC.exists():  # no procfs (macOS): only the pid can be checked
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                return False
            except PermissionError:
                return True
            return True
        return self.boot_id == _boot_id() and _start_ticks(self.pid) == self.start_ticks


def write_record(codex_home: Path, version: str) -> None:
    """Record this process as the daemon (atomically, mode 0600)."""
    path = pid_path(codex_home)
    private_mkdir(path.parent)
    pid = os.getpid()
    body = {
        "pid": pid,
        "processStartTime": time.ctime(),
        "processIdentity": {"bootId": _boot_id(), "startTicks": _start_ticks(pid)},
        "cliVersion": version,
    }
    temporary = path.with_name(f".{PID_FILE}.{pid}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(body, out)
    os.replace(temporary, path)


def read_record(codex_home: Path) -> DaemonRecord | None:
    """The record, or None when there is none or it cannot be read."""
    try:
        body = json.loads(pid_path(codex_home).read_text(encoding="utf-8"))
        identity = body["processIdentity"]
        return DaemonRecord(
            pid=int(body["pid"]),
            start_ticks=int(identity["startTicks"] if identity["startTicks"] is not None else -1),
            boot_id=str(identity["bootId"]),
            version=str(body.get("cliVersion", "")),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def remove_record(codex_home: Path) -> None:
    """Remove the record if it is this process's."""
    record = read_record(codex_home)
    if record is not None and record.pid == os.getpid():
        pid_path(codex_home).unlink(missing_ok=True)
