"""Benchmark: TUI launch → composer ready, with one stdio MCP server configured and without.

MCP servers start behind the first paint, so the two medians should match. The server is the
FastMCP test server (tests/mcp/server.py) with `MCP_TEST_START_DELAY` seconds of start-up, so
a launch that waited for it would show. Also prints codex-rust's launch medians beside ours.
Run: `.venv/bin/python tests/bench/tui_mcp_launch.py [ROUNDS] [SERVER_DELAY_SECONDS]`.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pexpect
import pyte

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "tests" / "mcp" / "server.py"
READY = "Ask Codex to do anything"


def launch_seconds(argv: list[str], home: Path, project: Path, env: dict[str, str]) -> float:
    """Seconds from spawning the TUI until the composer's placeholder is on screen."""
    screen = pyte.Screen(110, 36)
    stream = pyte.ByteStream(screen)
    start = time.perf_counter()
    child = pexpect.spawn(
        argv[0], argv[1:], cwd=str(project), env=env, dimensions=(36, 110), encoding=None
    )
    try:
        deadline = start + 60
        while READY not in "\n".join(screen.display):
            if time.perf_counter() > deadline:
                raise SystemExit("timed out; screen:\n" + "\n".join(screen.display))
            try:
                stream.feed(child.read_nonblocking(1 << 20, timeout=0.005))
            except pexpect.TIMEOUT:
                pass
        return time.perf_counter() - start
    finally:
        child.terminate(force=True)


def config_text(with_mcp: bool, delay: float) -> str:
    if not with_mcp:
        return ""
    return (
        "[mcp_servers.bench]\n"
        f'command = "{sys.executable}"\n'
        f'args = ["{SERVER}", "stdio"]\n'
        f'env = {{ MCP_TEST_START_DELAY = "{delay}" }}\n'
    )


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    delay = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    programs = {"ours": [str(Path(sys.executable).parent / "codex")]}
    if shutil.which("codex-rust"):
        programs["codex-rust"] = ["codex-rust", "-c", 'model="gpt-5.1-codex"']
    for name, argv in programs.items():
        for with_mcp in (False, True):
            times: list[float] = []
            for _ in range(rounds):
                base = Path("/root/rh-bench") if name == "codex-rust" else Path(tempfile.mkdtemp())
                home = base / "home-mcp-launch"
                shutil.rmtree(home, ignore_errors=True)
                home.mkdir(parents=True)
                (home / "config.toml").write_text(config_text(with_mcp, delay))
                project = Path(tempfile.mkdtemp()) / "project"
                project.mkdir()
                env = {
                    **os.environ,
                    "CODEX_HOME": str(home),
                    "OPENAI_API_KEY": "sk-bench",
                    "TERM": "xterm-256color",
                }
                args = [*argv, "-a", "never", "-s", "read-only"]
                times.append(launch_seconds(args, home, project, env))
            label = "one stdio MCP server" if with_mcp else "no MCP server"
            print(
                f"{name:>10}, {label:>20}: launch → composer median "
                f"{statistics.median(times) * 1000:.0f} ms "
                f"({', '.join(f'{t * 1000:.0f}' for t in times)})"
            )


if __name__ == "__main__":
    main()
