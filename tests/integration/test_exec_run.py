"""run_exec with real processes: streaming, caps, timeouts, cancellation and the Linux sandbox."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from codex_core.exec import ExecParams, run_exec
from codex_core.exec.sandbox import linux_sandbox_problem
from codex_core.protocol.common import DangerFullAccessPolicy, ReadOnlyPolicy, WorkspaceWritePolicy

FULL = DangerFullAccessPolicy()
needs_linux_sandbox = pytest.mark.skipif(
    not sys.platform.startswith("linux") or linux_sandbox_problem() is not None,
    reason="needs Landlock and seccomp (Linux)",
)


def params(script: str, cwd: Path, timeout_ms: int | None = 10_000) -> ExecParams:
    return ExecParams(["bash", "-c", script], cwd, timeout_ms, dict(os.environ))


def process_gone(pid: int) -> bool:
    """True once `pid` has exited (a zombie awaiting its reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def host_pids_running(token: str) -> list[int]:
    """Live (non-zombie) host processes whose command line holds `token`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read()
        except OSError:
            continue
        if token.encode() in cmdline.split(b"\0") and not process_gone(int(entry)):
            found.append(int(entry))
    return found


async def wait_gone(pid: int, within_s: float = 3.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if process_gone(pid):
            return True
        await asyncio.sleep(0.02)
    return False


async def wait_for_file(path: Path, within_s: float = 5.0) -> str:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        await asyncio.sleep(0.02)
    raise AssertionError(f"{path} was never written")


async def test_exec_run_streams_both_streams_and_reports_exit_code(tmp_path: Path) -> None:
    chunks: list[tuple[str, str]] = []
    result = await run_exec(
        params("echo out; echo err >&2; exit 3", tmp_path),
        "none",
        FULL,
        tmp_path,
        lambda s, c: chunks.append((s, c)),
    )
    assert (result.exit_code, result.stdout, result.stderr) == (3, "out\n", "err\n")
    assert sorted(result.aggregated_output.splitlines()) == ["err", "out"]
    assert "".join(c for s, c in chunks if s == "stdout") == "out\n"
    assert "".join(c for s, c in chunks if s == "stderr") == "err\n"
    assert not result.timed_out and not result.sandbox_denied


async def test_exec_run_reassembles_multibyte_chars_split_across_reads(tmp_path: Path) -> None:
    chunks: list[str] = []
    script = r"printf '\xc3'; sleep 0.2; printf '\xa9\n'; printf '\xff\n'"
    result = await run_exec(
        params(script, tmp_path), "none", FULL, tmp_path, lambda s, c: chunks.append(c)
    )
    assert result.stdout == "é\n\ufffd\n"
    assert "".join(chunks) == "é\n\ufffd\n"


async def test_exec_run_caps_huge_output_keeping_both_ends(tmp_path: Path) -> None:
    script = "echo START; head -c 3000000 /dev/zero | tr '\\0' a; echo; echo END"
    result = await run_exec(params(script, tmp_path), "none", FULL, tmp_path)
    assert result.stdout.startswith("START\n") and result.stdout.endswith("END\n")
    assert len(result.stdout) < 1_100_000
    assert "characters omitted" in result.stdout


async def test_exec_run_timeout_kills_command_and_grandchildren(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    script = f"sleep 30 & echo $! > {pidfile}; echo started; sleep 30"
    started = time.monotonic()
    result = await run_exec(params(script, tmp_path, timeout_ms=1000), "none", FULL, tmp_path)
    assert time.monotonic() - started < 5
    assert (result.exit_code, result.timed_out) == (124, True)
    assert result.aggregated_output == "started\ncommand timed out after 1000 ms\n"
    assert await wait_gone(int(pidfile.read_text()))


async def test_exec_run_cancel_kills_the_process_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    task = asyncio.create_task(
        run_exec(
            params(f"sleep 30 & echo $! > {pidfile}; sleep 30", tmp_path), "none", FULL, tmp_path
        )
    )
    grandchild = int(await wait_for_file(pidfile))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await wait_gone(grandchild)


async def test_exec_run_does_not_hang_on_background_process_holding_pipes(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    started = time.monotonic()
    result = await run_exec(
        params(f"sleep 30 & echo $! > {pidfile}; echo done", tmp_path), "none", FULL, tmp_path
    )
    try:
        assert time.monotonic() - started < 3
        assert (result.exit_code, result.stdout) == (0, "done\n")
    finally:
        os.kill(int(pidfile.read_text()), 9)


async def test_exec_run_missing_program_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        await run_exec(
            ExecParams(["no-such-program-x"], tmp_path, 1000, {}), "none", FULL, tmp_path
        )


@needs_linux_sandbox
async def test_exec_run_linux_sandbox_denial_is_reported(tmp_path: Path, codex_home: Path) -> None:
    result = await run_exec(
        params("echo $CODEX_SANDBOX_NETWORK_DISABLED; touch made", tmp_path),
        "linux",
        ReadOnlyPolicy(),
        tmp_path,
        codex_home=codex_home,
    )
    assert result.exit_code == 1 and result.sandbox_denied
    assert result.stdout == "1\n"
    assert "Read-only file system" in result.stderr or "Permission denied" in result.stderr
    assert not (tmp_path / "made").exists()


@needs_linux_sandbox
async def test_exec_run_linux_sandbox_allows_workspace_writes(
    tmp_path: Path, codex_home: Path
) -> None:
    policy = WorkspaceWritePolicy(network_access=True)
    result = await run_exec(
        params("touch made && echo ${CODEX_SANDBOX_NETWORK_DISABLED:-net}", tmp_path),
        "linux",
        policy,
        tmp_path,
        codex_home=codex_home,
    )
    assert (result.exit_code, result.stdout, result.sandbox_denied) == (0, "net\n", False)
    assert (tmp_path / "made").exists()


@needs_linux_sandbox
async def test_exec_run_linux_sandbox_timeout_kills_sandboxed_grandchild(
    tmp_path: Path, codex_home: Path
) -> None:
    # Pids inside the sandbox belong to its own pid namespace, so look the grandchild up
    # on the host by a unique argument instead.
    token = f"30.{os.getpid()}{time.monotonic_ns() % 100_000}"
    policy = WorkspaceWritePolicy()
    result = await run_exec(
        params(f"sleep {token} & sleep 30", tmp_path, timeout_ms=1500),
        "linux",
        policy,
        tmp_path,
        codex_home=codex_home,
    )
    assert result.timed_out and result.exit_code == 124 and not result.sandbox_denied
    deadline = time.monotonic() + 3.0
    while host_pids_running(token) and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    assert host_pids_running(token) == []


async def test_exec_run_feeds_stdin_then_closes_it(tmp_path: Path) -> None:
    command = ExecParams(
        ["bash", "-c", "wc -c; cat"], tmp_path, 10_000, dict(os.environ), b"x" * 300_000
    )
    result = await run_exec(command, "none", FULL, tmp_path)
    assert result.exit_code == 0
    assert result.stdout.strip() == "300000"


async def test_exec_run_stdin_ignored_by_a_command_that_exits_early(tmp_path: Path) -> None:
    command = ExecParams(["true"], tmp_path, 10_000, dict(os.environ), b"y" * 1_000_000)
    result = await run_exec(command, "none", FULL, tmp_path)
    assert result.exit_code == 0
