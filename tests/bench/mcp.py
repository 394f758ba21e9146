"""Bench: process start → first model request with one stdio MCP server, ours beside Rust.

Both CLIs run `codex exec` against the same scripted model server on 127.0.0.1 with the
same FastMCP test server (tests/mcp/server.py) configured; the clock stops when the first
request arrives (its tools then include the server's namespace). Also shown: the same
without any MCP server. Median of N runs each.

Run: .venv/bin/python tests/bench/mcp.py [--runs N] [--rust PATH]
The Rust CLI is `$CODEX_RUST`, else `codex-rust` on PATH.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.support.model_server import ModelServer  # noqa: E402
from tests.support.sse import message, turn  # noqa: E402

SERVER = ROOT / "tests" / "mcp" / "server.py"


def first_request_seconds(binary: str, home: Path, cwd: Path, with_mcp: bool) -> tuple[float, bool]:
    """Seconds to the first request, and whether it already offered the server's tools."""
    config = ""
    if with_mcp:
        config = (
            f"[mcp_servers.probe]\ncommand = {json.dumps(sys.executable)}\n"
            f"args = {json.dumps([str(SERVER)])}\n"
        )
    (home / "config.toml").write_text(config)
    with ModelServer() as server:
        server.add(turn(message("done")))
        env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench"}
        argv = [binary, "exec", "--skip-git-repo-check", "--json", *server.cli_flags()]
        argv += ["-c", 'model="gpt-5.1-codex"', "hi"]
        started = time.perf_counter()
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

        def arrived() -> bool:
            return any(r.path.endswith("/responses") for r in server.requests)

        while not arrived():
            if proc.poll() is not None and not arrived():
                raise RuntimeError(f"{binary} exited before its first request")
            time.sleep(0.001)
        elapsed = time.perf_counter() - started
        proc.wait(60)
        first = next(r for r in server.requests if r.path.endswith("/responses"))
        tools = [t.get("name") for t in first.body.get("tools", [])]
        return elapsed, "mcp__probe" in tools


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument(
        "--rust", default=os.environ.get("CODEX_RUST") or shutil.which("codex-rust")
    )
    args = parser.parse_args()
    ours = str(ROOT / ".venv" / "bin" / "codex")
    binaries = {"python": ours}
    if args.rust:
        binaries["rust"] = args.rust
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp) / "work"
        cwd.mkdir()
        for label, binary in binaries.items():
            for with_mcp in (False, True):
                home = Path(tmp) / f"home-{label}-{with_mcp}"
                home.mkdir()
                first_request_seconds(binary, home, cwd, with_mcp)  # warm caches
                runs = [
                    first_request_seconds(binary, home, cwd, with_mcp) for _ in range(args.runs)
                ]
                times = [seconds for seconds, _ in runs]
                offered = sum(1 for _, had_tools in runs if had_tools)
                what = "1 stdio MCP server" if with_mcp else "no MCP server    "
                print(
                    f"{label:6} {what}: median {statistics.median(times) * 1000:6.0f} ms "
                    f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}, n={args.runs})"
                    + (
                        f"; MCP tools in the first request {offered}/{args.runs}"
                        if with_mcp
                        else ""
                    )
                )


if __name__ == "__main__":
    main()
