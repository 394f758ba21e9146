"""Benchmark: a 20,000-delta answer in the real TUI, ours beside codex-rust, in a pty.

For each program: CPU seconds the process (with its child processes) spends from sending the
prompt until the last word is on screen, and keystroke → echo latency (ms) for keys typed
while the answer streams, measured when the echo's bytes reach the terminal.
Run: `.venv/bin/python tests/bench/tui_stream.py [ROUNDS]` (prints medians; codex-rust is
skipped when it is not installed; its CODEX_HOME lives outside /tmp, as it requires).
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import threading
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
    """User + system CPU so far of a process (all its threads) and its live descendants
    (our TUI runs its session in a child process)."""
    total, parents = 0.0, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])))
    for candidate, (_, ticks) in parents.items():
        ancestor = candidate
        while ancestor not in (pid, 0, 1) and ancestor in parents:
            ancestor = parents[ancestor][0]
        if ancestor == pid:
            total += ticks / CLOCK_TICKS
    return total


class Terminal:
    """The child's pty as a terminal would see it: a reader thread takes every chunk as it
    arrives and stamps it; nothing is parsed while keys are measured, so the harness takes no
    CPU from the program under test. `replay` runs the chunks through pyte afterwards."""

    def __init__(self, child: pexpect.spawn) -> None:
        self.child = child
        self.chunks: list[tuple[float, bytes]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.child.child_fd, 1 << 20)
            except OSError:
                return
            if not data:
                return
            self.chunks.append((time.perf_counter(), data))

    def wait_for_bytes(self, needle: bytes, since: int = 0, timeout: float = 120) -> int:
        """Wait until `needle` appears in the raw output after chunk `since`; returns the
        number of chunks read by then."""
        deadline = time.monotonic() + timeout
        checked, tail = since, b""
        while time.monotonic() < deadline:
            count = len(self.chunks)
            for _, data in self.chunks[checked:count]:
                if needle in tail + data:
                    return count
                tail = data[-len(needle) :]
            checked = count
            time.sleep(0.01)
        raise SystemExit(f"timed out waiting for {needle!r}")

    def replay(self, keys: list[tuple[float, str]]) -> list[float]:
        """Per key (sent at, text typed so far): seconds until the chunk that put that text in
        the composer arrived; keys sent after the answer's end are left out."""
        screen = pyte.Screen(110, 36)
        stream = pyte.ByteStream(screen)
        pending = list(keys)
        latencies: list[float] = []
        for at, data in self.chunks:
            stream.feed(data)
            if not pending or at < pending[0][0]:
                continue
            text = "\n".join(screen.display)
            if END in text:
                break
            while pending and pending[0][0] <= at and _echoed(text, pending[0][1]):
                latencies.append(at - pending.pop(0)[0])
        return latencies


def _echoed(text: str, typed: str) -> bool:
    return f"› {typed}" in text or f"│ {typed}" in text


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
        child.delaybeforesend = None  # pexpect sleeps 50 ms before every send by default
        terminal = Terminal(child)
        terminal.wait_for_bytes(b"Ask Codex")
        time.sleep(1.5)
        child.send(b"go")
        time.sleep(0.4)
        start_cpu = cpu_seconds(child.pid)
        started = len(terminal.chunks)
        child.send(b"\r")
        keys: list[tuple[float, str]] = []
        typed = ""
        for char in "qzjxkvwyqzjxkvwy":  # no prefix of it appears elsewhere on either screen
            time.sleep(0.12)
            typed += char
            keys.append((time.perf_counter(), typed))
            child.send(char.encode())
        terminal.wait_for_bytes(END.encode(), since=started)
        cpu = cpu_seconds(child.pid) - start_cpu
        time.sleep(0.3)
        child.terminate(force=True)
        return cpu, terminal.replay(keys)


def main() -> None:
    sys.setswitchinterval(0.0005)  # the reader thread stamps each chunk as it arrives
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
