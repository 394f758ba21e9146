"""The app-server daemon is out of the model's reach: a sandboxed command can neither connect
to its socket (it would drive the agent unsandboxed), nor remove or replace the socket in a
writable /tmp, nor plant turns in CODEX_HOME's queue."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from .test_linux_helpers import CODEX, cli, linux_sandbox

pytestmark = [linux_sandbox]

CONNECT = """
import socket, sys
for path in sys.argv[1:]:
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        print("connected", path)
    except OSError as err:
        print("refused", path, err.errno)
"""


def test_sandboxed_command_cannot_reach_the_daemon(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    ws = tmp_path / "ws"
    ws.mkdir()
    env = {**os.environ, "CODEX_HOME": str(home)}
    started = subprocess.run(
        [str(CODEX), "app-server", "daemon", "start"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert started.returncode == 0, started.stderr
    assert json.loads(started.stdout)["status"] == "started"
    link = home / "app-server-control" / "app-server-control.sock"
    real = link.resolve()
    (ws / "probe.py").write_text(CONNECT)
    queue_file = home / "queue_1.sqlite"
    planted = real.parent / f"planted-{tmp_path.name}"
    script = (
        f"python3 probe.py {link} {real}; "
        f"echo planted >> {queue_file} && echo wrote-queue; "
        f"rm -f {real} {real}.lock && echo removed-socket; "
        f"ln -s /dev/null {planted} && echo planted-link"
    )
    # Without network (the default workspace-write, /tmp writable) and with network.
    for extra in ([], ["-c", "sandbox_workspace_write.network_access=true"]):
        done = cli(ws, script, "-c", "sandbox_mode=workspace-write", *extra, env=env)
        assert "connected" not in done.stdout, (extra, done.stdout)
        assert done.stdout.count("refused") == 2, (extra, done.stdout, done.stderr)
        assert "wrote-queue" not in done.stdout, (extra, done.stdout)
        # /tmp is writable here, but the socket directory is re-bound read-only.
        assert "removed-socket" not in done.stdout, (extra, done.stdout)
        assert "planted-link" not in done.stdout, (extra, done.stdout)
        assert real.is_socket() and not planted.is_symlink()
    assert (
        json.loads(
            subprocess.run(
                [str(CODEX), "app-server", "daemon", "version"],
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
            ).stdout
        )["status"]
        == "running"
    )
    stopped = subprocess.run(
        [str(CODEX), "app-server", "daemon", "stop"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert json.loads(stopped.stdout)["status"] == "stopped"
