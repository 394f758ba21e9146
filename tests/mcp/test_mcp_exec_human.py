"""`codex exec`'s human output for MCP calls, as codex-rust 0.169 prints it (issue 26).

Recorded from 0.169 (NO_COLOR) for a call that succeeds, one whose result is an error and
one that times out: `mcp: <server>/<tool> started`, then `(completed)` or `(failed)`
(`tests/fixtures/exec_human_0169/mcp_lines.txt`). A call error follows on one line (0.169
prints it with a Rust backtrace).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.mcp.conftest import namespace_call, stdio_entry, write_config
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e

RECORDED = Path(__file__).parent.parent / "fixtures" / "exec_human_0169" / "mcp_lines.txt"


def test_exec_human_mcp_lines_as_0169(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(codex_home, stdio_entry("probe", "tool_timeout_sec = 1"))
    model_server.add(
        namespace_call("mcp__probe", "echo", {"text": "hi"}, "c1"),
        namespace_call("mcp__probe", "fail", {"reason": "nope"}, "c2"),
        namespace_call("mcp__probe", "hang", {}, "c3"),
        turn(message("done")),
    )
    done = subprocess.run(
        [str(codex_bin), "exec", "--skip-git-repo-check", *model_server.cli_flags(), "go"],
        cwd=tmp_path,
        env={**os.environ, "OPENAI_API_KEY": "sk-test", "NO_COLOR": "1"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert [line for line in lines if line.startswith("mcp:")] == RECORDED.read_text().splitlines()
    error = lines[lines.index("mcp: probe/hang (failed)") + 1]
    assert error.startswith("tool call error: tool call failed for `probe/hang`")
