"""Bench (issue 29): how soon each front end reaches the model, ours beside the Rust Codex CLI.

Rows (process start is the clock's zero unless said otherwise):

- `codex --version`: the whole process (ours must stay ≤ 40 ms on an idle machine);
- `codex exec "hi"`: until the first request arrives at the scripted server;
- `codex exec` with one stdio MCP server (tests/mcp/server.py): until the first request
  arrives (and whether it already offers the server's tools);
- the TUI launched with a prompt, in a 110×36 pty: until the answer's first word is on the
  (emulated) screen (the warm-up run is left with ctrl+c twice, as a user leaves it, so what
  the TUI keeps at exit is there: see `LEFT`);
- `codex app-server` over stdio: `turn/start` sent → first `item/agentMessage/delta`, and
  spawn → that delta.

Both binaries run against the same scripted model server on 127.0.0.1, each with its own
CODEX_HOME (under the home directory: the Rust CLI refuses one under /tmp). Runs are
interleaved (ours, theirs; theirs, ours; …) so a busy moment of a shared machine hits both;
besides each side's median and range the last column is the median of the per-run ratios
ours ÷ theirs, the figure to compare on a loaded machine.

Run: .venv/bin/python tests/bench/startup.py [--runs N] [--rust PATH] [--only ROW,…]
The Rust CLI is `$CODEX_RUST`, else `codex-rust` on PATH; without it only ours is timed.
"""

from __future__ import annotations

import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.against_rust import parser_with_runs, spread  # noqa: E402
from tests.support.model_server import ModelServer  # noqa: E402
from tests.support.sse import message, turn  # noqa: E402

OURS = str(Path(sys.executable).parent / "codex")
MCP_SERVER = ROOT / "tests" / "mcp" / "server.py"
MODEL = ["-c", 'model="gpt-5.1-codex"']
WORD = "Zebra42"
"""The answer's first delta: a word nothing else on a screen shows."""
TIMEOUT_S = 60.0

LEFT: set[str] = set()
"""Binaries whose TUI has been left once as a user leaves it (ctrl+c twice): its warm-up run.
A TUI killed after each answer never writes what it keeps beside its bytecode at exit (our
module bundle and compile cache), so every run would load as on the first launch after an
install; one ordinary exit warms them as any earlier session of the user's has."""

OFFERED: dict[str, list[bool]] = {}
"""Per binary: whether each MCP run's first request already offered the server's tools."""

Run = Callable[[str, Path, Path, ModelServer], float]
"""One timed run: (binary, CODEX_HOME, cwd, server) → milliseconds."""


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench", **extra}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # installed users run from cached bytecode
    return env


def version_run(binary: str, home: Path, cwd: Path, server: ModelServer) -> float:
    """`codex --version`, the whole process."""
    start = time.perf_counter()
    subprocess.run([binary, "--version"], cwd=cwd, env=_env(home), capture_output=True, check=True)
    return (time.perf_counter() - start) * 1000


def _first_request(argv: list[str], home: Path, cwd: Path, server: ModelServer) -> float:
    """Run `argv` to its end; ms from spawn to the arrival of its first model request."""
    server.add(turn(message(WORD + " answers", chunks=[WORD, " answers"])))
    before = len(server.requests)
    start = time.monotonic()
    done = subprocess.run(
        argv, cwd=cwd, env=_env(home), capture_output=True, stdin=subprocess.DEVNULL, timeout=60
    )
    if done.returncode != 0 or len(server.requests) == before:
        raise SystemExit(f"{argv[0]} failed: {done.stderr.decode(errors='replace')[-600:]}")
    return (server.requests[before].received_at - start) * 1000


def exec_run(binary: str, home: Path, cwd: Path, server: ModelServer) -> float:
    """`codex exec "hi"` → first request."""
    argv = [binary, "exec", "--skip-git-repo-check", *server.cli_flags(), *MODEL, "hi"]
    return _first_request(argv, home, cwd, server)


def exec_mcp_run(binary: str, home: Path, cwd: Path, server: ModelServer) -> float:
    """`codex exec "hi"` with one stdio MCP server → first request."""
    table = {"command": sys.executable, "args": [str(MCP_SERVER), "stdio"]}
    inline = ", ".join(f"{key} = {json.dumps(value)}" for key, value in table.items())
    argv = [binary, "exec", "--skip-git-repo-check", *server.cli_flags(), *MODEL]
    argv += ["-c", f"mcp_servers.probe={{{inline}}}", "hi"]
    elapsed = _first_request(argv, home, cwd, server)
    tools = json.dumps(server.requests[-1].body.get("tools", []))
    OFFERED.setdefault(binary, []).append("mcp__probe" in tools)
    return elapsed


def tui_run(binary: str, home: Path, cwd: Path, server: ModelServer) -> float:
    """The TUI started with a prompt in a pty → the answer's first word on the screen.

    Each run gets a server of its own, answering every request: a TUI may send a request
    more (a retry) and must not leave the next run without its answer.
    """
    with ModelServer() as own:
        for _ in range(3):
            own.add(turn(message(WORD + " answers", chunks=[WORD, " answers"])))
        return _tui_answer(binary, home, cwd, own)


def _tui_answer(binary: str, home: Path, cwd: Path, server: ModelServer) -> float:
    import pexpect
    import pyte

    argv = ["-a", "on-request", "-s", "read-only", *server.cli_flags(), *MODEL, "say hi"]
    start = time.perf_counter()
    child = pexpect.spawn(
        binary,
        argv,
        cwd=str(cwd),
        env=_env(home, TERM="xterm-256color"),
        dimensions=(36, 110),
        encoding=None,
    )

    class Screen(pyte.Screen):
        def write_process_input(self, data: str) -> None:
            child.send(data.encode())  # answers the terminal queries (cursor position, …)

    screen = Screen(110, 36)
    stream = pyte.ByteStream(screen)
    try:
        while not any(WORD in line for line in screen.display):
            if time.perf_counter() - start > TIMEOUT_S:
                raise SystemExit(f"{binary}: no answer on screen:\n" + "\n".join(screen.display))
            try:
                stream.feed(child.read_nonblocking(1 << 20, timeout=0.005))
            except pexpect.TIMEOUT:
                pass
            except pexpect.EOF:
                raise SystemExit(f"{binary} exited:\n" + "\n".join(screen.display)) from None
        return (time.perf_counter() - start) * 1000
    finally:
        if binary not in LEFT:
            LEFT.add(binary)
            _leave(child)
        child.terminate(force=True)


def _leave(child: Any) -> None:
    """End the TUI as a user does: ctrl+c twice, then wait for it to exit."""
    import pexpect

    for _ in range(2):
        time.sleep(0.5)
        child.sendcontrol("c")
    try:
        child.expect(pexpect.EOF, timeout=TIMEOUT_S)
    except pexpect.TIMEOUT:
        print(f"{child.args[0]!r}: still running after ctrl+c twice", file=sys.stderr)


def _app_server(binary: str, home: Path, cwd: Path, server: ModelServer) -> dict[str, float]:
    from tests.bench.app_server import app_server_run

    return app_server_run(binary, server, home, cwd)


def app_turn_run(binary: str, home: Path, cwd: Path, server: ModelServer) -> float:
    """app-server: `turn/start` → first agent message delta."""
    return _app_server(binary, home, cwd, server)["turn/start→first delta"]


def app_spawn_run(binary: str, home: Path, cwd: Path, server: ModelServer) -> float:
    """app-server: spawn → first agent message delta (initialize, thread/start, turn/start)."""
    return _app_server(binary, home, cwd, server)["spawn→first delta"]


ROWS: dict[str, tuple[str, Run]] = {
    "version": ("codex --version (whole process)", version_run),
    "exec": ('codex exec "hi" → first request', exec_run),
    "mcp": ("exec + 1 stdio MCP server → first request", exec_mcp_run),
    "tui": ("TUI with a prompt → answer on screen", tui_run),
    "app": ("app-server turn/start → first delta", app_turn_run),
    "app-spawn": ("app-server spawn → first delta", app_spawn_run),
}


def main() -> int:
    parser = parser_with_runs(7, __doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", default=",".join(ROWS), help="rows: " + ", ".join(ROWS))
    args = parser.parse_args()
    rows = [name for name in args.only.split(",") if name]
    unknown = [name for name in rows if name not in ROWS]
    if unknown:
        parser.error(f"unknown rows {unknown}; choose from {', '.join(ROWS)}")
    binaries = {"ours": OURS, **({"rust": args.rust} if args.rust else {})}
    if not args.rust:
        print("codex-rust not found (set CODEX_RUST or put it on PATH): ours only")
    compileall.compile_dir(str(ROOT / "codex_core"), quiet=1)
    compileall.compile_dir(str(ROOT / "codex_tui"), quiet=1)
    times: dict[tuple[str, str], list[float]] = {}
    base = Path(tempfile.mkdtemp(prefix="codex-startup-", dir=Path.home()))
    try:
        cwd = base / "work"
        cwd.mkdir()
        with ModelServer() as server:
            for row in rows:
                run = ROWS[row][1]
                for index in range(args.runs + 1):  # round 0 warms caches and is dropped
                    if index == 1:
                        OFFERED.clear()
                    order = list(binaries.items())
                    if index % 2:
                        order.reverse()
                    for name, binary in order:
                        home = base / f"home-{name}-{row}"
                        home.mkdir(exist_ok=True)
                        elapsed = run(binary, home, cwd, server)
                        if index:
                            times.setdefault((row, name), []).append(elapsed)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"ms, median (min–max) of {args.runs} interleaved runs")
    header = f"{'':44}{'ours':>22}" + (
        f"{'rust 0.169':>22}{'ours ÷ rust':>14}" if args.rust else ""
    )
    print(header)
    for row in rows:
        ours = times[(row, "ours")]
        line = f"{ROWS[row][0]:44}{spread(ours):>22}"
        if args.rust:
            rust = times[(row, "rust")]
            ratio = statistics.median(o / r for o, r in zip(ours, rust, strict=True))
            line += f"{spread(rust):>22}{ratio:13.2f}×"
        print(line)
    for name, binary in binaries.items():
        if offered := OFFERED.get(binary):
            print(
                f"{name}: the MCP server's tools were in the first request in "
                f"{sum(offered)} of {len(offered)} runs (both wait for a server only briefly)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
