"""`codex app-server daemon start|stop|version` end to end: the real console script, the real
daemon process on the control socket. Outputs are compared with codex-rust 0.169's
(tests/fixtures/app_server_daemon_0169.json): the same fields in the same order.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from codex_core.servers.app_server.daemon_pid import read_record
from tests.servers.rpc_client import CODEX

FIXTURE = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "app_server_daemon_0169.json").read_text()
)


def daemon(home: Path, command: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `codex app-server daemon COMMAND` from a directory it must not keep busy."""
    return subprocess.run(
        [str(CODEX), "app-server", "daemon", command],
        env={**os.environ, "CODEX_HOME": str(home), **env},
        capture_output=True,
        text=True,
        timeout=90,
        stdin=subprocess.DEVNULL,
        cwd=home,
    )


def report(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1, done.stdout
    parsed: dict[str, Any] = json.loads(done.stdout)
    return parsed


def keys_of(name: str) -> list[str]:
    """The fields of 0.169's report `name`, in order."""
    text = FIXTURE[name].replace("{pid}", "1")
    return list(json.loads(text))


def expected(home: Path, status: str, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"status": status}
    out.update({k: extra.pop(k) for k in ("backend", "pid") if k in extra})
    version = _version()
    out |= {
        "managedCodexPath": str(CODEX),
        "managedCodexVersion": version,
        "socketPath": str(home / "app-server-control" / "app-server-control.sock"),
        "cliVersion": version,
    }
    return out | extra


def _version() -> str:
    from codex_core import __version__

    return __version__


def _stat_fields(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()


def _gone(pid: int) -> bool:
    """No such process any more (an exited one not yet reaped counts as gone)."""
    try:
        return _stat_fields(pid)[0] in ("Z", "X")
    except OSError:
        return True


def test_daemon_start_version_stop_round_trip(codex_home: Path) -> None:
    """Each command's JSON as 0.169's; the daemon is detached, private and alone."""
    socket = codex_home / "app-server-control" / "app-server-control.sock"
    missing = daemon(codex_home, "version")
    cause = FIXTURE["version without daemon cause"]
    assert (missing.returncode, missing.stderr) == (
        1,
        FIXTURE["version without daemon"].format(home=codex_home) + f": {cause}\n",
    )

    started = report(daemon(codex_home, "start"))
    pid = started["pid"]
    assert list(started) == keys_of("start")
    assert started == expected(
        codex_home, "started", backend="pid", pid=pid, appServerVersion=_version()
    )
    try:
        # Detached: its own session without a terminal, not our child, in `/`, output logged.
        fields = _stat_fields(pid)
        assert int(fields[3]) == pid  # session id (field 6)
        assert int(fields[4]) == 0  # tty_nr (field 7)
        assert int(fields[1]) != os.getpid()
        assert os.readlink(f"/proc/{pid}/cwd") == "/"
        log = codex_home / "log" / "app-server-daemon.log"
        assert os.readlink(f"/proc/{pid}/fd/2") == str(log)
        # The socket: a link under CODEX_HOME to a 0600 socket in a 0700 directory.
        assert socket.is_symlink()
        real = socket.resolve()
        assert real.parent == Path(f"/tmp/codex-daemon-{os.getuid()}")
        assert stat.S_ISSOCK(real.stat().st_mode) and stat.S_IMODE(real.stat().st_mode) == 0o600
        assert stat.S_IMODE(real.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE(socket.parent.stat().st_mode) == 0o700

        again = report(daemon(codex_home, "start"))
        assert list(again) == keys_of("start again")
        assert again == expected(
            codex_home, "alreadyRunning", backend="pid", appServerVersion=_version()
        )
        running = report(daemon(codex_home, "version"))
        assert list(running) == keys_of("version")
        assert running == expected(
            codex_home, "running", backend="pid", appServerVersion=_version()
        )
        record = read_record(codex_home)
        assert record is not None and record.pid == pid
    finally:
        stopped = report(daemon(codex_home, "stop"))
    assert list(stopped) == keys_of("stop")
    assert stopped == expected(codex_home, "stopped", backend="pid")
    assert _gone(pid)
    assert not socket.exists() and not socket.is_symlink()
    assert read_record(codex_home) is None
    gone = report(daemon(codex_home, "stop"))
    assert list(gone) == keys_of("stop again")
    assert gone == expected(codex_home, "notRunning")


def test_daemon_stale_socket_is_replaced(codex_home: Path) -> None:
    """A daemon killed outright leaves its link, socket and record: the next start replaces them."""
    first = report(daemon(codex_home, "start"))["pid"]
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{first}").exists() and _stat_fields(first)[0] != "Z":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    socket = codex_home / "app-server-control" / "app-server-control.sock"
    assert socket.is_symlink()  # stale
    refused = daemon(codex_home, "version")
    assert refused.returncode == 1
    assert "Connection refused (os error 111)" in refused.stderr
    assert refused.stderr.count("\n") == 1

    second = report(daemon(codex_home, "start"))
    assert second["status"] == "started" and second["pid"] != first
    assert report(daemon(codex_home, "version"))["status"] == "running"
    third = report(daemon(codex_home, "restart"))
    assert list(third) == keys_of("restart")
    assert third == expected(
        codex_home, "restarted", backend="pid", pid=third["pid"], appServerVersion=_version()
    )
    assert third["pid"] != second["pid"] and _gone(second["pid"])
    assert report(daemon(codex_home, "stop"))["status"] == "stopped"


FAKE_DAEMON = """
import asyncio, json, sys
from pathlib import Path
from websockets.asyncio.server import unix_serve
from codex_core.servers.app_server.daemon_pid import write_record
from codex_core.servers.app_server.listen import control_socket
from codex_core.servers.app_server.unix_socket import ControlSocket

home = Path(sys.argv[1])

async def handle(ws):
    async for frame in ws:
        message = json.loads(frame)
        if message.get("method") == "initialize":
            agent = "codex_daemon/0.0.1 (Linux; x86_64) codex-python (codex_daemon; 0.0.1)"
            await ws.send(json.dumps({"id": message["id"], "result": {"userAgent": agent}}))

async def main():
    control = ControlSocket(control_socket(home))
    control.prepare()
    async with unix_serve(handle, str(control.real)):
        control.publish()
        write_record(home, "0.0.1")
        print("ready", flush=True)
        await asyncio.Future()

asyncio.run(main())
"""


def test_daemon_of_another_version_is_replaced(codex_home: Path) -> None:
    """A daemon of another codex version answering on the socket is stopped and replaced."""
    old = subprocess.Popen(
        [sys.executable, "-c", FAKE_DAEMON, str(codex_home)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CODEX_HOME": str(codex_home)},
    )
    try:
        assert old.stdout is not None and old.stdout.readline() == "ready\n"
        assert report(daemon(codex_home, "version"))["appServerVersion"] == "0.0.1"
        started = report(daemon(codex_home, "start"))
        assert started["status"] == "started"
        assert old.wait(timeout=20) == -signal.SIGTERM
        assert report(daemon(codex_home, "version"))["appServerVersion"] == _version()
    finally:
        if old.poll() is None:
            old.kill()
            old.wait()
    assert report(daemon(codex_home, "stop"))["status"] == "stopped"


def test_managed_daemon_needs_the_control_socket(codex_home: Path) -> None:
    done = subprocess.run(
        [str(CODEX), "app-server", "--listen", "ws://127.0.0.1:0", "--managed-daemon"],
        env={**os.environ, "CODEX_HOME": str(codex_home)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (done.returncode, done.stderr) == (
        1,
        "Error: `--managed-daemon` requires `--listen unix://`\n",
    )


def test_two_starts_at_once_make_one_daemon(codex_home: Path) -> None:
    """Starts are serialized by the lock file: one `started`, the other `alreadyRunning`."""
    env = {**os.environ, "CODEX_HOME": str(codex_home)}
    argv = [str(CODEX), "app-server", "daemon", "start"]
    both = [
        subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=90) for process in both]
    assert [process.returncode for process in both] == [0, 0], outputs
    statuses = sorted(json.loads(out)["status"] for out, _ in outputs)
    assert statuses == ["alreadyRunning", "started"]
    assert report(daemon(codex_home, "stop"))["status"] == "stopped"


def test_daemon_unusable_codex_home_is_one_line(tmp_path: Path) -> None:
    """A CODEX_HOME where nothing can be created: one line naming the path, exit 1."""
    home = tmp_path / "readonly"
    home.mkdir()
    (home / "app-server-control").write_text("not a directory")
    done = daemon(home, "start")
    assert done.returncode == 1
    assert done.stderr.startswith("Error: cannot use ") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
