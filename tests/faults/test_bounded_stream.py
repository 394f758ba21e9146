"""Bounded model streams end to end: a 64 MB SSE line, and a retry-after of 1e9 seconds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from codex_core.client.retry import MAX_DELAY_S
from tests.support.model_server import ModelServer
from tests.support.steps import garbage, http_error

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not hasattr(os, "wait4"), reason="needs fork() and wait4() (POSIX)"),
]

HUGE_LINE_BYTES = 64 * 1024 * 1024
PEAK_RSS_LIMIT_BYTES = 300 * 1024 * 1024


@dataclass(frozen=True)
class Measured:
    """One finished `codex exec`: how it ended, what it said, its peak RSS and duration."""

    returncode: int
    stdout: str
    stderr: str
    peak_rss_bytes: int
    seconds: float


# Runs argv[2:] as a grandchild and writes its peak RSS (KiB) to argv[1]. A child forked
# straight from pytest would report pytest's RSS: Linux carries the forking process's
# high-water mark across exec, so the process measured must be forked from a small one.
_LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_pid, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(str(usage.ru_maxrss))
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def exec_measured(
    codex_bin: Path, server: ModelServer, cwd: Path, *flags: str, timeout: float = 120
) -> Measured:
    """Run `codex exec` against `server`, reading its peak RSS from wait4() in a launcher."""
    argv = [str(codex_bin), "exec", "--skip-git-repo-check", *server.cli_flags(), *flags, "hi"]
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    rss_file = cwd / ".peak_rss_kib"
    started = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", _LAUNCHER, str(rss_file), *argv],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        raise
    seconds = time.monotonic() - started
    return Measured(
        child.returncode,
        out.decode(errors="replace"),
        err.decode(errors="replace"),
        int(rss_file.read_text()) * 1024,  # Linux reports KiB
        seconds,
    )


def test_bounded_sse_64mb_line_fails_clearly_with_bounded_memory(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    body = b"data: " + b"x" * HUGE_LINE_BYTES + b"\n\n"
    model_server.add(garbage(body, "text/event-stream"))
    run = exec_measured(codex_bin, model_server, tmp_path)
    print(f"64 MB SSE line: peak RSS {run.peak_rss_bytes / 2**20:.0f} MiB, {run.seconds:.1f} s")
    assert run.returncode != 0
    assert "sent a stream line larger than 16 MiB" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
    assert run.peak_rss_bytes < PEAK_RSS_LIMIT_BYTES
    assert len(model_server.requests) == 1  # an oversize event is not transient: no retry


def test_bounded_retry_after_a_billion_seconds_gives_up_with_a_clear_error(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    huge = {"Retry-After": "1000000000"}
    retries = 1
    for _ in range(retries + 1):
        model_server.add(http_error(429, {"error": {"message": "slow down"}}, huge))
    run = exec_measured(
        codex_bin,
        model_server,
        tmp_path,
        "-c",
        f"model_providers.mock.request_max_retries={retries}",
        timeout=60,
    )
    print(f"retry-after 1e9 with {retries} retries: clear error after {run.seconds:.1f} s")
    assert run.returncode != 0
    assert "kept rate-limiting the request after 1 retry" in run.stderr, run.stderr
    assert "asked to wait 32 years" in run.stderr
    assert "Traceback" not in run.stderr
    assert len(model_server.requests) == retries + 1
    assert run.seconds < retries * MAX_DELAY_S + 15
