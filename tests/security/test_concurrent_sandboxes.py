"""Issue 23 items 1, 3 and 7: protected paths never depend on another sandbox's lifetime.

Every test runs the installed console script (`codex sandbox`) on the real kernel. A
sandbox here is a `codex sandbox` process whose command waits for go-files the test
writes, so the order in which sandboxes start, probe and end is the test's to choose.
"""

from __future__ import annotations

import os
import select
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .test_linux_helpers import CODEX, CONFINED, cli, needs_bwrap

pytestmark = [needs_bwrap]

# Runs in the sandbox: say it started, wait for `go.N` (written by the test in a control dir
# outside the workspace, which the sandbox can read), then try to plant protected paths.
PROBE = r"""
ctl="$1"; n="$2"
wait_for() { for _ in $(seq 1 1000); do [ -e "$ctl/$1" ] && return 0; sleep 0.01; done; exit 9; }
echo started
wait_for "go.$n"
r=""
if mkdir -p .git 2>/dev/null && printf '[core]\n\tfsmonitor = touch %s/pwned\n' "$ctl" > .git/config 2>/dev/null; then r="$r git-planted"; else r="$r git-blocked"; fi
if mkdir -p .codex 2>/dev/null && echo '[mcp_servers.x]' > .codex/config.toml 2>/dev/null; then r="$r codex-planted"; else r="$r codex-blocked"; fi
echo "$r"
"""


class Sandbox:
    """One `codex sandbox` process running PROBE in `ws`."""

    def __init__(self, ws: Path, ctl: Path, n: int, env: dict[str, str]) -> None:
        self.ctl, self.n = ctl, n
        argv = [str(CODEX), "sandbox", *CONFINED, "--", "bash", "-c", PROBE, "probe"]
        self.proc = subprocess.Popen(
            [*argv, str(ctl), str(n)],
            cwd=ws,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], 20)
        assert ready, "the sandbox did not start"
        assert self.proc.stdout.readline() == "started\n", self.proc.communicate()

    def finish(self) -> str:
        (self.ctl / f"go.{self.n}").write_text("")
        out, err = self.proc.communicate(timeout=30)
        assert self.proc.returncode == 0, err
        return out.strip()


def _setup(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    ws = tmp_path / "ws"
    ws.mkdir()
    ctl = tmp_path / "ctl"
    ctl.mkdir()
    (tmp_path / "home").mkdir()
    env = dict(os.environ, CODEX_HOME=str(tmp_path / "home"))
    return ws, ctl, env


def _host_clean(ws: Path, ctl: Path) -> None:
    assert not (ctl / "pwned").exists()
    assert not (ws / ".git").exists(), "a .git reached the host workspace"
    assert not (ws / ".codex").exists(), "a .codex reached the host workspace"


def test_second_sandbox_keeps_its_cover_when_the_first_ends(tmp_path: Path) -> None:
    ws, ctl, env = _setup(tmp_path)
    first = Sandbox(ws, ctl, 1, env)
    second = Sandbox(ws, ctl, 2, env)  # started while the first one's mount points exist
    assert first.finish() == "git-blocked codex-blocked"
    assert second.finish() == "git-blocked codex-blocked"
    _host_clean(ws, ctl)


def test_placeholder_shared_across_codex_processes_is_removed_by_the_last(tmp_path: Path) -> None:
    ws, ctl, env = _setup(tmp_path)
    first = Sandbox(ws, ctl, 1, env)
    assert (ws / ".git").is_dir()  # the mount point bubblewrap made
    (tmp_path / "other-home").mkdir()
    second = Sandbox(ws, ctl, 2, dict(env, CODEX_HOME=str(tmp_path / "other-home")))
    assert second.finish() == "git-blocked codex-blocked"
    assert (ws / ".git").is_dir(), "removed while another sandbox still covers it"
    third = Sandbox(ws, ctl, 3, env)
    assert first.finish() == "git-blocked codex-blocked"
    assert third.finish() == "git-blocked codex-blocked"
    _host_clean(ws, ctl)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.permutations(range(6)), st.integers(min_value=2, max_value=3))
def test_any_interleaving_keeps_protected_paths_read_only(
    tmp_path_factory: pytest.TempPathFactory, order: list[int], count: int
) -> None:
    """Events 0..2N-1: event i < N starts sandbox i, event N+i lets sandbox i probe and end.

    Whatever the order (an end before its start waits for the start), every sandbox finds
    .git and .codex unwritable and the host workspace holds neither afterwards.
    """
    tmp_path = tmp_path_factory.mktemp("interleave")
    ws, ctl, env = _setup(tmp_path)
    events = [e for e in order if e % 3 < count]  # 2N events of the N sandboxes in play
    running: dict[int, Sandbox] = {}
    pending_ends: set[int] = set()
    results: list[str] = []
    for event in events:
        index, is_end = event % 3, event >= 3
        if not is_end:
            running[index] = Sandbox(ws, ctl, index, env)
            if index in pending_ends:
                pending_ends.discard(index)
                results.append(running.pop(index).finish())
        elif index in running:
            results.append(running.pop(index).finish())
        else:
            pending_ends.add(index)
    for sandbox in running.values():
        results.append(sandbox.finish())
    assert results == ["git-blocked codex-blocked"] * count
    _host_clean(ws, ctl)


def test_enclosing_repository_git_is_read_only(tmp_path: Path) -> None:
    """cwd in a subdirectory of a repo whose .git lies under a writable root (item 3)."""
    repo = tmp_path / "repo"
    (repo / ".git" / "hooks").mkdir(parents=True)
    (repo / ".git" / "config").write_text("[core]\n")
    sub = repo / "sub"
    sub.mkdir()
    # The repository is not itself a writable root, but lies under one (as under /tmp).
    writable = ["-c", f'sandbox_workspace_write.writable_roots=["{tmp_path}"]']
    script = (
        "echo '[core] fsmonitor = touch /tmp/x' >> ../.git/config 2>/dev/null && echo config; "
        "echo evil > ../.git/hooks/pre-commit 2>/dev/null && echo hook; "
        "echo fine > ../ok && echo ok"
    )
    proc = cli(sub, script, *CONFINED, *writable)
    assert proc.stdout.split() == ["ok"], proc.stderr
    assert (repo / ".git" / "config").read_text() == "[core]\n"
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()


def test_absent_git_and_codex_under_tmpdir_cannot_be_created(tmp_path: Path) -> None:
    """$TMPDIR is writable by default, but not for a new .git or .codex (item 3)."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    ws = tmp_path / "ws"
    ws.mkdir()
    (tmp_path / "home").mkdir()
    env = dict(os.environ, TMPDIR=str(scratch), CODEX_HOME=str(tmp_path / "home"))
    script = (
        'mkdir "$TMPDIR/.git" 2>/dev/null && echo git; '
        'mkdir "$TMPDIR/.codex" 2>/dev/null && echo codex; '
        'echo x > "$TMPDIR/file" && echo ok'
    )
    default = ["-c", "sandbox_mode=workspace-write"]
    argv = [str(CODEX), "sandbox", *default, "--", "bash", "-c", script]
    proc = subprocess.run(argv, cwd=ws, env=env, capture_output=True, text=True, timeout=60)
    assert proc.stdout.split() == ["ok"], proc.stderr
    assert sorted(p.name for p in scratch.iterdir()) == ["file"]


def test_codex_home_under_a_writable_root_is_read_only(tmp_path: Path) -> None:
    """CODEX_HOME inside the workspace (item 7): config, rules and sessions stay as they are."""
    ws = tmp_path / "ws"
    home = ws / "codex-home"
    (home / "rules").mkdir(parents=True)
    (home / "config.toml").write_text('model = "m"\n')
    env = dict(os.environ, CODEX_HOME=str(home))
    script = (
        "echo '[mcp_servers.x]' >> codex-home/config.toml 2>/dev/null && echo config; "
        "echo rule > codex-home/rules/default.rules 2>/dev/null && echo rules; "
        "mkdir codex-home/hooks 2>/dev/null && echo hooks; "
        "echo fine > ok && echo ok"
    )
    argv = [str(CODEX), "sandbox", *CONFINED, "--", "bash", "-c", script]
    proc = subprocess.run(argv, cwd=ws, env=env, capture_output=True, text=True, timeout=60)
    assert proc.stdout.split() == ["ok"], proc.stderr
    assert (home / "config.toml").read_text() == 'model = "m"\n'
    assert sorted(p.name for p in home.iterdir()) == ["config.toml", "rules"]
