"""Benchmark: the 20,000-delta answer of `tui_stream.py` in our TUI attached with `--remote`
to our app-server on a 127.0.0.1 websocket, beside the same TUI running its session locally.

Prints, per setup, the CPU seconds of the TUI's process tree (the server's own CPU apart)
and keystroke → echo latency while the answer streams.
Run: `.venv/bin/python tests/bench/tui_remote_stream.py [ROUNDS]`.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pexpect

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.bench.tui_stream import DELTAS, END, Terminal, cpu_seconds  # noqa: E402
from tests.servers.ws_client import ServerProcess  # noqa: E402
from tests.support.model_server import ModelServer  # noqa: E402
from tests.support.sse import message, turn, usage  # noqa: E402

CODEX = str(Path(sys.executable).parent / "codex")


def one_run(remote: bool) -> tuple[float, list[float], float]:
    words = [f"w{i}" + ("\n\n" if i % 40 == 39 else " ") for i in range(DELTAS - 1)] + [END]
    root = Path(tempfile.mkdtemp())
    home, project = root / "home", root / "project"
    home.mkdir()
    project.mkdir()
    with ModelServer() as model:
        model.add(turn(message("".join(words), chunks=words), usage=usage(input=10, output=10)))
        flags = ["-a", "never", "-s", "read-only", *model.cli_flags()]
        server = None
        if remote:
            server_flags = ["--config" if f == "-c" else f for f in model.cli_flags()]
            server = ServerProcess(home, project, server_flags, "ws://127.0.0.1:0")
            flags = ["--remote", server.url]
        env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench"}
        env["TERM"] = "xterm-256color"
        child = pexpect.spawn(
            CODEX, flags, cwd=str(project), env=env, dimensions=(36, 110), encoding=None
        )
        child.delaybeforesend = None
        terminal = Terminal(child)
        terminal.wait_for_bytes(b"Ask Codex")
        time.sleep(1.5)
        child.send(b"go")
        time.sleep(0.4)
        start_cpu = cpu_seconds(child.pid)
        started = len(terminal.chunks)
        began = time.perf_counter()
        child.send(b"\r")
        keys: list[tuple[float, str]] = []
        typed = ""
        for char in "qzjxkvwyqzjxkvwy":
            time.sleep(0.12)
            typed += char
            keys.append((time.perf_counter(), typed))
            child.send(char.encode())
        terminal.wait_for_bytes(END.encode(), since=started)
        wall = time.perf_counter() - began
        cpu = cpu_seconds(child.pid) - start_cpu
        time.sleep(0.3)
        child.terminate(force=True)
        if server is not None:
            server.kill()
        return cpu, terminal.replay(keys), wall


def main() -> None:
    sys.setswitchinterval(0.0005)
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for name, remote in (("local", False), ("--remote ws", True)):
        cpus: list[float] = []
        walls: list[float] = []
        echoes: list[float] = []
        for _ in range(rounds):
            cpu, latencies, wall = one_run(remote)
            cpus.append(cpu)
            walls.append(wall)
            echoes += latencies
        echo = f"{statistics.median(echoes) * 1000:.0f} ms" if echoes else "n/a"
        print(
            f"{name:>12}: TUI CPU median {statistics.median(cpus):.2f}s, stream wall median "
            f"{statistics.median(walls):.2f}s, keystroke→echo median {echo} ({len(echoes)} keys)"
        )


if __name__ == "__main__":
    main()
