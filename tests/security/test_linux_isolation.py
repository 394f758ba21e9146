"""Issue 11, items 7, 9 and 10, and the no-user-namespace fallback."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .test_linux_helpers import (
    CODEX,
    CONFINED,
    alive_with,
    cli,
    core,
    linux_sandbox,
    needs_bwrap,
    workspace,
)

pytestmark = [linux_sandbox]


def git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_linux_absent_codex_and_git_cannot_be_created_and_leave_nothing(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    script = (
        "mkdir .codex 2>/dev/null || echo codex-denied; "
        "echo 'gitdir: /tmp' > .git 2>/dev/null || echo git-denied; "
        "touch new-file && echo top-level-ok"
    )
    proc = cli(ws, script)
    assert proc.stdout.splitlines() == ["codex-denied", "git-denied", "top-level-ok"], proc.stderr
    assert sorted(os.listdir(ws)) == ["new-file"]  # no mount point left behind


def test_linux_worktree_shared_gitdir_under_writable_tmp_stays_read_only(tmp_path: Path) -> None:
    main = tmp_path / "main"
    main.mkdir()
    git("init", "-q", cwd=main)
    git(
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "x",
        cwd=main,
    )
    ws = tmp_path / "wt"
    git("worktree", "add", "-q", str(ws), cwd=main)
    dot_git = (ws / ".git").read_text()
    hook = main / ".git" / "hooks" / "post-checkout"
    script = (
        f"echo pwned > {hook} 2>/dev/null || echo hook-denied; "
        f"echo pwned >> {main}/.git/config 2>/dev/null || echo config-denied; "
        "echo 'gitdir: /tmp/evil' > .git 2>/dev/null || echo repoint-denied; "
        "mv .git .git-old 2>/dev/null || echo rename-denied"
    )
    # /tmp (where the main repository lives) is a writable root here.
    proc = cli(ws, script, "-c", "sandbox_mode=workspace-write")
    assert proc.stdout.splitlines() == [
        "hook-denied",
        "config-denied",
        "repoint-denied",
        "rename-denied",
    ], proc.stderr
    assert not hook.exists() and (ws / ".git").read_text() == dot_git


def test_linux_without_user_namespaces_falls_back_and_still_fences(tmp_path: Path) -> None:
    ws, outside = workspace(tmp_path)
    env = {**os.environ, "CODEX_SANDBOX_NO_USERNS": "1"}
    script = (
        "grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status; "
        "mkdir .codex 2>/dev/null || echo codex-denied; "
        "echo x >> .git/config 2>/dev/null || echo git-config-denied; "
        "mv .git .git-old 2>/dev/null || echo git-rename-denied; "
        f"echo x > {outside}/f 2>/dev/null || echo outside-denied"
    )
    proc = cli(ws, script, env=env)
    assert proc.stdout.splitlines() == [
        "NoNewPrivs:\t1",
        "Seccomp:\t2",
        "codex-denied",
        "git-config-denied",
        "git-rename-denied",
        "outside-denied",
    ], proc.stderr
    assert proc.stderr.startswith("codex sandbox: user namespaces are unavailable")
    assert proc.stderr.count("user namespaces are unavailable") == 1
    assert (ws / ".git" / "config").read_text() == "[core]\n" and not (ws / ".codex").exists()


LEAVE_BEHIND = "setsid sleep {n} & nohup sleep {n} >/dev/null 2>&1 & (sleep {n} &); disown -a; "


def _wait_gone(marker: str, seconds: float = 5.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while (pids := alive_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return pids


@needs_bwrap
def test_linux_children_die_when_the_command_ends(tmp_path: Path) -> None:
    ws, _ = workspace(tmp_path)
    n = 900000 + os.getpid() % 1000
    proc = cli(ws, LEAVE_BEHIND.format(n=n) + "echo started")
    assert proc.stdout.strip() == "started", proc.stderr
    assert _wait_gone(f"sleep\0{n}") == []


@needs_bwrap
def test_linux_children_die_after_a_timeout_kill(tmp_path: Path) -> None:
    ws, _ = workspace(tmp_path)
    n = 910000 + os.getpid() % 1000
    command = ["bash", "-c", LEAVE_BEHIND.format(n=n) + "sleep 60"]
    result = core(ws, command, {"PATH": os.environ["PATH"]}, timeout_ms=1500)
    assert result.timed_out
    assert _wait_gone(f"sleep\0{n}") == []


DRIVER = """
import asyncio, sys
sys.path.insert(0, {root!r})
from tests.security.test_linux_helpers import CONFINED_POLICY
from codex_core.exec import ExecParams, run_exec
from codex_core.protocol.common import SANDBOX_POLICY
from pathlib import Path
params = ExecParams(command=["bash", "-c", {script!r}], cwd=Path.cwd(), timeout_ms=None,
                    env={{"PATH": "/usr/bin:/bin"}})
asyncio.run(run_exec(params, "linux", SANDBOX_POLICY.validate_python(CONFINED_POLICY), Path.cwd()))
"""


@needs_bwrap
def test_linux_children_die_after_kill_9_of_codex(tmp_path: Path) -> None:
    ws, _ = workspace(tmp_path)
    n = 920000 + os.getpid() % 1000
    root = str(Path(__file__).resolve().parents[2])
    script = DRIVER.format(root=root, script=LEAVE_BEHIND.format(n=n) + "sleep 60")
    codex = subprocess.Popen([sys.executable, "-c", script], cwd=ws)
    try:
        deadline = time.monotonic() + 20
        while len(alive_with(f"sleep\0{n}")) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(alive_with(f"sleep\0{n}")) >= 3
    finally:
        codex.send_signal(signal.SIGKILL)
        codex.wait()
    assert _wait_gone(f"sleep\0{n}") == []


@needs_bwrap
def test_linux_cancel_of_run_exec_leaves_nothing_alive(tmp_path: Path) -> None:
    from codex_core.exec import ExecParams, run_exec
    from codex_core.protocol.common import SANDBOX_POLICY

    from .test_linux_helpers import CONFINED_POLICY

    ws, _ = workspace(tmp_path)
    n = 930000 + os.getpid() % 1000
    params = ExecParams(
        command=["bash", "-c", LEAVE_BEHIND.format(n=n) + "sleep 60"],
        cwd=ws,
        timeout_ms=None,
        env={"PATH": os.environ["PATH"]},
    )

    async def interrupt() -> None:
        task = asyncio.create_task(
            run_exec(params, "linux", SANDBOX_POLICY.validate_python(CONFINED_POLICY), ws)
        )
        for _ in range(200):
            await asyncio.sleep(0.05)
            if len(alive_with(f"sleep\0{n}")) >= 3:
                break
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(interrupt())
    assert _wait_gone(f"sleep\0{n}") == []


CONNECT = """
import socket, sys
for family, kind, address in (
    (socket.AF_UNIX, socket.SOCK_STREAM, sys.argv[1]),
    (socket.AF_UNIX, socket.SOCK_STREAM, sys.argv[2]),
    (socket.AF_UNIX, socket.SOCK_DGRAM, sys.argv[3]),
):
    try:
        s = socket.socket(family, kind)
        if kind == socket.SOCK_DGRAM:
            s.sendto(b"pwned", address)
        else:
            s.connect(address)
            s.sendall(b"pwned")
        print("reached")
    except OSError:
        print("blocked")
"""


@pytest.mark.parametrize("network", ["false", "true"])
def test_linux_host_unix_sockets_unreachable(tmp_path: Path, network: str) -> None:
    ws, outside = workspace(tmp_path)
    stream_path, dgram_path = str(outside / "s.sock"), str(outside / "d.sock")
    abstract = f"\0codex-test-{os.getpid()}-{network}"
    with (
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as stream,
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as abstract_server,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as dgram,
    ):
        stream.bind(stream_path)
        stream.listen()
        abstract_server.bind(abstract)
        abstract_server.listen()
        dgram.bind(dgram_path)
        (ws / "connect.py").write_text(CONNECT)
        command = f"{sys.executable} -I connect.py {stream_path} '\\0{abstract[1:]}' {dgram_path}"
        script = command.replace("'\\0", "$'\\0").replace("connect.py", "connect.py")
        proc = cli(ws, script, *CONFINED, "-c", f"sandbox_workspace_write.network_access={network}")
        assert proc.stdout.splitlines() == ["blocked", "blocked", "blocked"], proc.stderr
        dgram.setblocking(False)
        with pytest.raises(BlockingIOError):
            dgram.recv(10)


def test_linux_sysv_ipc_and_host_processes_out_of_reach(tmp_path: Path) -> None:
    ws, _ = workspace(tmp_path)
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    key = 0x0C0DE000 + os.getpid() % 4096
    shmid = libc.shmget(key, 4096, 0o1600)  # IPC_CREAT | 0600
    victim = subprocess.Popen(["sleep", "300"])
    try:
        script = f"""
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
print("shm", "found" if libc.shmget({key}, 0, 0) >= 0 else "missing")
try:
    os.kill({victim.pid}, 0)
    print("kill reached")
except OSError:
    print("kill blocked")
"""
        for extra in ({}, {"CODEX_SANDBOX_NO_USERNS": "1"}):
            proc = cli(ws, f"{sys.executable} -I -c '{script}'", env={**os.environ, **extra})
            assert proc.stdout.splitlines() == ["shm missing", "kill blocked"], (extra, proc.stderr)
        assert victim.poll() is None
    finally:
        victim.kill()
        if shmid >= 0:
            libc.shmctl(shmid, 0, None)  # IPC_RMID
    assert CODEX.exists()


def test_linux_without_user_namespaces_absent_codex_and_git_cannot_be_created(
    tmp_path: Path,
) -> None:
    # No .git and no .codex yet: the old fallback granted the whole root, so both could be made.
    ws = tmp_path / "plain"
    ws.mkdir()
    (ws / "notes.txt").write_text("keep\n")
    env = {**os.environ, "CODEX_SANDBOX_NO_USERNS": "1"}
    script = (
        "mkdir .codex 2>/dev/null || echo codex-denied; "
        "mkdir .git 2>/dev/null || echo git-denied; "
        "echo more >> notes.txt && echo notes-written"
    )
    proc = cli(ws, script, env=env)
    assert proc.stdout.splitlines() == ["codex-denied", "git-denied", "notes-written"], proc.stderr
    assert sorted(p.name for p in ws.iterdir()) == ["notes.txt"]


# Issue 23 item 8: SOCK_RAW is an alias of SOCK_DGRAM for AF_UNIX, and sendmsg carries a
# destination address the filter cannot read, so no unix socket that can address a peer may
# be created, whatever the type argument says; socketpair of a stream kind keeps working.
SENDMSG = """
import socket, sys
path = sys.argv[1]
def attempt(label, make):
    try:
        s = make()
        s.sendmsg([b"pwned " + label.encode()], [], 0, path)
        print(label, "reached")
    except OSError:
        print(label, "blocked")
attempt("raw", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_RAW))
attempt("dgram-cloexec", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC))
attempt("seqpacket", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET))
attempt("pair-raw", lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_RAW)[0])
attempt("pair-dgram", lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)[0])
attempt("pair-rdm", lambda: socket.socketpair(socket.AF_UNIX, 4)[0])
a, b = socket.socketpair()
a.sendall(b"ok")
print("pair-stream", b.recv(2).decode())
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
a.sendall(b"ok")
print("pair-seqpacket", b.recv(2).decode())
"""


@pytest.mark.parametrize("network", ["false", "true"])
def test_linux_unix_datagram_aliases_and_sendmsg_unreachable(tmp_path: Path, network: str) -> None:
    ws, outside = workspace(tmp_path)
    dgram_path = str(outside / "d.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as dgram:
        dgram.bind(dgram_path)
        (ws / "sendmsg.py").write_text(SENDMSG)
        script = f"{sys.executable} -I sendmsg.py {dgram_path}"
        proc = cli(ws, script, *CONFINED, "-c", f"sandbox_workspace_write.network_access={network}")
        assert proc.stdout.splitlines() == [
            "raw blocked",
            "dgram-cloexec blocked",
            "seqpacket blocked",
            "pair-raw blocked",
            "pair-dgram blocked",
            "pair-rdm blocked",
            "pair-stream ok",
            "pair-seqpacket ok",
        ], proc.stderr
        dgram.setblocking(False)
        with pytest.raises(BlockingIOError):
            print(dgram.recv(100))
