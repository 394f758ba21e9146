"""Issue 11, items 3-6 and 8: code before confinement, capabilities, TIOCSTI, the helper path, metadata."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox_helper.launch import find_bwrap, package_root

from .test_linux_helpers import (
    CODEX,
    CONFINED,
    CONFINED_POLICY,
    cli,
    core,
    linux_sandbox,
    needs_bwrap,
    workspace,
)

pytestmark = [linux_sandbox]

PRELOAD_C = r"""
#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void planted(void) {
    char cmd[4096]; size_t n; FILE *c = fopen("/proc/self/cmdline", "rb");
    n = c ? fread(cmd, 1, sizeof cmd - 1, c) : 0; if (c) fclose(c);
    for (size_t i = 0; i < n; i++) if (!cmd[i]) cmd[i] = ' ';
    cmd[n] = 0;
    FILE *f = fopen(MARKER, "a");
    if (f) { fprintf(f, "preload ran in: %s\n", cmd); fclose(f); }
}
"""


def plant(ws: Path, outside: Path) -> dict[str, str]:
    """Plant code that records itself in `outside` when it runs; return the env that loads it."""
    marker = outside / "pwned"
    payload = (
        "import sys\n"
        f"open({str(marker)!r}, 'a').write('python ran in: ' + ' '.join(sys.orig_argv) + '\\n')\n"
    )
    (ws / "sitecustomize.py").write_text(payload)
    (ws / "usercustomize.py").write_text(payload)
    (ws / "startup.py").write_text(payload)
    (ws / "bash_env.sh").write_text(f"echo bash_env ran >> {marker}\n")
    (ws / "lib" / "python3.11").mkdir(parents=True)
    env = {
        "PYTHONPATH": str(ws),
        "PYTHONSTARTUP": str(ws / "startup.py"),
        "PYTHONHOME": str(ws),
        "PYTHONINSPECT": "1",
        "BASH_ENV": str(ws / "bash_env.sh"),
        "PLANTED": "yes",
    }
    if shutil.which("gcc"):
        src = ws / "preload.c"
        src.write_text(PRELOAD_C)
        lib = ws / "preload.so"
        subprocess.run(
            ["gcc", "-shared", "-fPIC", f'-DMARKER="{marker}"', "-o", str(lib), str(src)],
            check=True,
        )
        env["LD_PRELOAD"] = str(lib)
        env["LD_LIBRARY_PATH"] = str(ws)
    return env


def ran_before_confinement(marker: Path) -> list[str]:
    """Marker lines written by bwrap or the helper interpreter (the codex process that the
    user started with these variables may run them: that is the user's own choice)."""
    if not marker.exists():
        return []
    lines = marker.read_text().splitlines()
    return [line for line in lines if "bwrap" in line or "sandbox_helper" in line]


SHOW_ENV = "echo PLANTED=$PLANTED LD_PRELOAD=${LD_PRELOAD:+set} PYTHONPATH=${PYTHONPATH:+set}"


def test_linux_env_from_user_environment_runs_nothing_before_confinement(tmp_path: Path) -> None:
    if not shutil.which("gcc"):
        pytest.skip("gcc is not installed: cannot build the LD_PRELOAD library")
    ws, outside = workspace(tmp_path)
    env = {**os.environ, **plant(ws, outside)}
    del env["PYTHONHOME"]  # would stop the user's own codex process from starting at all
    proc = cli(ws, SHOW_ENV, env=env)
    assert ran_before_confinement(outside / "pwned") == []
    # The command itself still gets the user's environment, LD_PRELOAD included.
    assert "PLANTED=yes LD_PRELOAD=set PYTHONPATH=set" in proc.stdout, proc.stderr


def test_linux_env_from_shell_environment_policy_runs_nothing_before_confinement(
    tmp_path: Path,
) -> None:
    if not shutil.which("gcc"):
        pytest.skip("gcc is not installed: cannot build the LD_PRELOAD library")
    ws, outside = workspace(tmp_path)
    env = {"PATH": os.environ["PATH"], **plant(ws, outside)}
    result = core(ws, ["bash", "-c", SHOW_ENV], env)
    # Set only for the command (shell_environment_policy.set): nothing may run unconfined.
    assert not (outside / "pwned").exists(), (outside / "pwned").read_text()
    assert "PLANTED=yes LD_PRELOAD=set PYTHONPATH=set" in result.stdout, result.stderr


def test_linux_capabilities_all_dropped_even_for_root(tmp_path: Path) -> None:
    ws, outside = workspace(tmp_path)
    victim = outside / "victim"
    victim.write_text("x")
    script = (
        "grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status; "
        f"chown 12345 {victim} 2>/dev/null || echo chown-denied; "
        "mknod dev c 1 3 2>/dev/null || echo mknod-denied; "
        "hostname pwned 2>/dev/null || echo sethostname-denied"
    )
    proc = cli(ws, script)
    lines = proc.stdout.splitlines()
    for cap in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert f"{cap}:\t0000000000000000" in lines, proc.stdout
    assert "NoNewPrivs:\t1" in lines and "Seccomp:\t2" in lines
    assert lines[-3:] == ["chown-denied", "mknod-denied", "sethostname-denied"]
    assert victim.stat().st_uid == os.getuid()
    assert not (ws / "dev").exists()


TTY_ATTACK = """
import errno, fcntl, os, termios
for name, request in (("TIOCSTI", termios.TIOCSTI), ("TIOCLINUX", 0x541C)):
    try:
        fcntl.ioctl(0, request, b"x")
        print(name, "allowed")
    except OSError as err:
        print(name, errno.errorcode[err.errno])
try:
    os.open("/dev/tty", os.O_RDWR)
    print("controlling-tty yes")
except OSError as err:
    print("controlling-tty", errno.errorcode[err.errno])
print("sid-is-self", os.getsid(0) == os.getpid())
"""


def test_linux_tiocsti_denied_and_no_controlling_tty_on_a_real_pty(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    ws, _ = workspace(tmp_path)
    (ws / "attack.py").write_text(TTY_ATTACK)
    child = pexpect.spawn(
        str(CODEX),
        ["sandbox", *CONFINED, "--", sys.executable, "-I", "attack.py"],
        cwd=str(ws),
        timeout=60,
        encoding="utf-8",
    )
    child.expect(pexpect.EOF)
    out = [line.strip() for line in (child.before or "").splitlines() if line.strip()]
    assert (
        out
        == [
            "TIOCSTI EPERM",
            "TIOCLINUX EPERM",
            "controlling-tty ENXIO",
            "sid-is-self False",  # bubblewrap's new session leader is the helper, not the command
        ]
        or out[:3] == ["TIOCSTI EPERM", "TIOCLINUX EPERM", "controlling-tty ENXIO"]
    ), out


@needs_bwrap
def test_linux_what_the_core_executes_is_not_writable_from_inside(
    tmp_path: Path, codex_home: Path
) -> None:
    """30 launches in a row, each trying to replace what the next one executes."""
    root = package_root()
    bwrap_dir = os.path.dirname(find_bwrap() or "/nonexistent")
    targets = [
        f"{root}/sandbox_helper/pwned.py",
        f"{root}/codex_core/pwned.py",
        f"{sys.prefix}/bin/pwned",
        f"{bwrap_dir}/pwned",
    ]
    link = codex_home / "tmp" / "arg0" / "codex-linux-sandbox"
    marker = tmp_path / "outside-marker"
    attack = "; ".join(
        [
            f"mkdir -p {link.parent}",
            f"printf '#!/bin/sh\\necho pwned > {marker}\\n' > {link}",
            f"chmod +x {link}",
        ]
        + [f"echo pwned > {t} 2>/dev/null" for t in targets]
        + [
            f"echo '#' >> {root}/sandbox_helper/linux.py 2>/dev/null",
            f"mv {sys.prefix} {sys.prefix}.moved 2>/dev/null",
            f"mv {root}/sandbox_helper {root}/sandbox_helper.moved 2>/dev/null",
            "true",
        ]
    )
    before = (Path(root) / "sandbox_helper" / "linux.py").read_bytes()
    writable = f'sandbox_workspace_write.writable_roots=["{root}", "{sys.prefix}", "{codex_home}"]'
    ws = tmp_path / "ws"
    ws.mkdir()
    for _ in range(30):
        proc = cli(ws, attack + "; echo round-done", *CONFINED, "-c", writable)
        assert proc.stdout.strip() == "round-done", proc.stderr
    assert [t for t in targets[:4] if os.path.exists(t)] == []
    assert not marker.exists()  # a planted helper link is never executed
    assert (Path(root) / "sandbox_helper" / "linux.py").read_bytes() == before
    assert os.path.isdir(f"{root}/sandbox_helper") and os.path.isdir(sys.prefix)


def test_linux_metadata_outside_roots_cannot_change(tmp_path: Path) -> None:
    ws, outside = workspace(tmp_path)
    victim = outside / "victim"
    victim.write_text("x")
    os.chmod(victim, 0o644)
    os.utime(victim, (1_000_000, 1_000_000))
    script = f"""
import os
for name, call in (
    ("chmod", lambda: os.chmod({str(victim)!r}, 0o777)),
    ("utime", lambda: os.utime({str(victim)!r}, (5, 5))),
    ("setxattr", lambda: os.setxattr({str(victim)!r}, "user.pwned", b"1")),
    ("chown", lambda: os.chown({str(victim)!r}, 4242, 4242)),
):
    try:
        call()
        print(name, "allowed")
    except OSError as err:
        print(name, "denied")
"""
    result = core(ws, [sys.executable, "-I", "-c", script], {"PATH": os.environ["PATH"]})
    assert result.stdout.split("\n")[:4] == [
        "chmod denied",
        "utime denied",
        "setxattr denied",
        "chown denied",
    ], result.stderr
    info = victim.stat()
    assert (info.st_mode & 0o777, info.st_mtime, info.st_uid) == (0o644, 1_000_000, os.getuid())
    assert CONFINED_POLICY["exclude_slash_tmp"] is True  # victim lives under /tmp, excluded
