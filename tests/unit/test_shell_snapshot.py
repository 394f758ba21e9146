"""Shell snapshots: what is recorded from the login shell, and how `bash -lc` replays it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from pathlib import Path

import pytest

from codex_core.exec.shell_snapshot import ENV_VAR, ShellSnapshot, build_script

PROFILE = """\
export FROM_PROFILE="a b'c"
export PATH="/opt/from-profile:$PATH"
unset DROPPED
shopt -s extglob
greet() { echo "hello $1"; }
alias ll='ls -l'
"""


def capture(home: Path, profile: str = PROFILE) -> ShellSnapshot:
    (home / ".profile").write_text(profile)
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "DROPPED": "x", "KEEP": "same"}
    snapshot = ShellSnapshot(env)

    async def run() -> None:
        snapshot.start()
        for _ in range(200):
            if snapshot.script is not None:
                return
            await asyncio.sleep(0.05)
        await snapshot.aclose()

    asyncio.run(run())
    return snapshot


def test_shell_snapshot_records_what_the_login_shell_changed(tmp_path: Path) -> None:
    script = capture(tmp_path).script
    assert script is not None
    lines = script.splitlines()
    assert "export FROM_PROFILE='a b'\"'\"'c'" in lines
    assert any(line.startswith("export PATH=/opt/from-profile:") for line in lines)
    assert "unset DROPPED" in lines
    assert "shopt -s extglob" in lines
    assert "alias ll='ls -l'" in lines
    assert "greet () " in lines
    assert not any(
        line.startswith(("export KEEP=", "export HOME=", "export SHLVL=")) for line in lines
    )
    assert not any("login_shell" in line for line in lines)


def test_shell_snapshot_replays_in_bash_c_with_the_scripts_line_numbers(tmp_path: Path) -> None:
    snapshot = capture(tmp_path)
    argv, env = snapshot.apply(
        [
            "bash",
            "-lc",
            'greet "$FROM_PROFILE"\necho ${PATH%%:*}\nenv | grep -c CODEX_SHELL || true\nnope_xyz',
        ],
        {"HOME": str(tmp_path), "PATH": os.environ["PATH"], "DROPPED": "x"},
    )
    assert argv[:2] == ["bash", "-c"] and ENV_VAR in env
    done = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=tmp_path)
    assert done.stdout.splitlines() == ["hello a b'c", "/opt/from-profile", "0"]
    assert "line 4: nope_xyz: command not found" in done.stderr


def test_shell_snapshot_leaves_other_commands_and_unready_snapshots_alone() -> None:
    snapshot = ShellSnapshot({})
    env = {"A": "1"}
    assert snapshot.apply(["bash", "-lc", "true"], env) == (["bash", "-lc", "true"], env)
    snapshot._script = "export X=1\n"
    for argv in (["bash", "-c", "true"], ["zsh", "-lc", "true"], ["bash", "-lc"], ["ls", "-l"]):
        assert snapshot.apply(argv, env) == (argv, env)
    argv, replay_env = snapshot.apply(["/bin/bash", "-lc", "echo hi"], env)
    assert argv == ["/bin/bash", "-c", f'eval "${ENV_VAR}"; unset {ENV_VAR}; echo hi']
    assert replay_env == {"A": "1", ENV_VAR: "export X=1\n"}


def test_shell_snapshot_of_something_else_is_none() -> None:
    assert build_script({}, "PATH=/bin\0") is None


def test_shell_snapshot_without_bash_stays_off(tmp_path: Path) -> None:
    snapshot = ShellSnapshot({"PATH": str(tmp_path)}, shell="no-such-shell-xyz")

    async def run() -> None:
        snapshot.start()
        await asyncio.sleep(0.1)
        await snapshot.aclose()

    asyncio.run(run())
    assert snapshot.script is None


def test_shell_snapshot_login_shell_never_runs_in_the_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The capture runs unsandboxed: a login script that sources a relative path must not
    # pick up a file sandboxed code left in the workspace.
    home, workspace = tmp_path / "home", tmp_path / "workspace"
    home.mkdir()
    workspace.mkdir()
    marker = tmp_path / "ran"
    (workspace / "evil.sh").write_text(f"touch {marker}\n")
    monkeypatch.chdir(workspace)
    (home / ".profile").write_text("[ -f ./evil.sh ] && . ./evil.sh\n")
    env = {"HOME": str(home), "PATH": os.environ["PATH"]}
    snapshot = ShellSnapshot(env)

    async def run() -> None:
        snapshot.start()
        for _ in range(200):
            if snapshot.script is not None:
                return
            await asyncio.sleep(0.05)

    asyncio.run(run())
    assert snapshot.script is not None
    assert not marker.exists()


def test_shell_snapshot_stop_does_not_wait_for_what_the_profile_left_running(
    tmp_path: Path,
) -> None:
    """A login profile's background child keeps the capture's output open: stopping the
    capture waits for it only briefly (it used to wait as long as the child lived)."""
    (tmp_path / ".profile").write_text("sleep 30 &\nsleep 30\n")
    snapshot = ShellSnapshot({"HOME": str(tmp_path), "PATH": os.environ["PATH"]})

    async def run() -> float:
        snapshot.start()
        await asyncio.sleep(0.5)  # the profile is in its last `sleep`
        started = asyncio.get_running_loop().time()
        await snapshot.aclose()
        return asyncio.get_running_loop().time() - started

    assert asyncio.run(asyncio.wait_for(run(), 20)) < 5
    assert snapshot.script is None


def test_shell_snapshot_stop_leaves_what_the_profile_started_to_finish(tmp_path: Path) -> None:
    """Stopping the capture kills the login shell only: a profile's background job (pyenv's
    rehash holds a lock file while it runs) is not killed halfway through its work."""
    marker = tmp_path / "finished"
    (tmp_path / ".profile").write_text(f"(sleep 1; echo done > {marker}) &\nsleep 30\n")
    snapshot = ShellSnapshot({"HOME": str(tmp_path), "PATH": os.environ["PATH"]})

    async def run() -> None:
        snapshot.start()
        await asyncio.sleep(0.5)  # the profile is in its last `sleep`, the job in its own
        await snapshot.aclose()

    asyncio.run(asyncio.wait_for(run(), 20))
    for _ in range(100):
        if marker.exists():
            break
        time.sleep(0.05)
    assert marker.read_text() == "done\n"


def test_shell_snapshot_runs_the_login_shell_at_a_lower_cpu_priority(tmp_path: Path) -> None:
    """A heavy profile (pyenv, nvm, conda) runs beside the first model request: it must not
    take the CPU that request needs. Its forks inherit the lower priority."""
    script = capture(tmp_path, "sleep 0.2\nexport PROFILE_NICE=$(nice)\n").script
    expected = min(19, os.getpriority(os.PRIO_PROCESS, 0) + 10)
    assert script is not None
    assert f"export PROFILE_NICE={expected}" in script.splitlines()
