"""Benchmark: a 20,000-delta answer in the real TUI, ours beside codex-rust, in a pty.

For each program: CPU seconds the process spends from sending the prompt until the last word
is on screen, and keystroke → echo latency (ms) for keys typed while the answer streams.
Run: `.venv/bin/python tests/bench/tui_stream.py [ROUNDS]` (prints medians; codex-rust is
skipped when it is not installed; its CODEX_HOME lives outside /tmp, as it requires).
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
sys.path.insert(0, str(REPO))

from tests.support.model_server import ModelServer  # noqa: E402
from tests.support.sse import message, turn, usage  # noqa: E402

DELTAS = 20_000
READY = "Ask Codex to do anything"
END = "THE-END-MARKER"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process (all its threads) so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class Screen:
    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.screen = pyte.Screen(110, 36)
        self.stream = pyte.ByteStream(self.screen)

    def pump(self, timeout: float = 0.01) -> None:
        try:
            self.stream.feed(self.child.read_nonblocking(1 << 20, timeout=timeout))
        except pexpect.TIMEOUT:
            pass

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait(self, predicate: object, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():  # type: ignore[operator]
            if time.monotonic() > deadline:
                raise SystemExit("timed out; screen:\n" + self.text())
            self.pump()


def one_run(argv: list[str], home: Path, project: Path) -> tuple[float, list[float]]:
    words = [f"w{i}" + ("\n\n" if i % 40 == 39 else " ") for i in range(DELTAS - 1)] + [END]
    with ModelServer() as server:
        server.add(turn(message("".join(words), chunks=words), usage=usage(input=10, output=10)))
        env = {
            **os.environ,
            "CODEX_HOME": str(home),
            "OPENAI_API_KEY": "sk-bench",
            "TERM": "xterm-256color",
        }
        args = [*argv, "-a", "never", "-s", "read-only", *server.cli_flags()]
        child = pexpect.spawn(
            args[0], args[1:], cwd=str(project), env=env, dimensions=(36, 110), encoding=None
        )
        screen = Screen(child)
        screen.wait(lambda: "Ask Codex" in screen.text() or "codex" in screen.text().lower())
        time.sleep(1.5)
        screen.pump()
        child.send(b"go")
        time.sleep(0.4)
        start_cpu = cpu_seconds(child.pid)
        child.send(b"\r")
        latencies: list[float] = []
        typed = ""
        for char in "abcdefgh":
            time.sleep(0.15)
            if END in screen.text():
                break
            typed += char
            sent = time.perf_counter()
            child.send(char.encode())
            screen.wait(lambda t=typed: f"› {t}" in screen.text() or f"│ {t}" in screen.text())
            latencies.append(time.perf_counter() - sent)
        screen.wait(lambda: END in screen.text())
        cpu = cpu_seconds(child.pid) - start_cpu
        child.terminate(force=True)
        return cpu, latencies


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    programs = {"ours": [str(Path(sys.executable).parent / "codex")]}
    if shutil.which("codex-rust"):
        programs["codex-rust"] = ["codex-rust", "-c", 'model="gpt-5.1-codex"']
    for name, argv in programs.items():
        base = Path("/root/rh-bench") if name == "codex-rust" else Path(tempfile.mkdtemp())
        cpus: list[float] = []
        echoes: list[float] = []
        for _ in range(rounds):
            home, project = base / "home", Path(tempfile.mkdtemp()) / "project"
            shutil.rmtree(home, ignore_errors=True)
            home.mkdir(parents=True)
            project.mkdir(parents=True)
            cpu, latencies = one_run(argv, home, project)
            cpus.append(cpu)
            echoes += latencies
        echo = f"{statistics.median(echoes) * 1000:.0f} ms" if echoes else "n/a (stream ended)"
        print(
            f"{name:>10}: 20k-delta stream CPU median {statistics.median(cpus):.2f}s "
            f"({', '.join(f'{c:.2f}' for c in cpus)}); keystroke→echo while streaming median "
            f"{echo} ({len(echoes)} keys)"
        )


if __name__ == "__main__":
    main()
