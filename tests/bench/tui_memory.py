"""Bench (issue 24): memory of the whole process tree of the TUI, ours beside codex-rust 0.169.

Both run in a 110×36 pty against the scripted model server (`-a never -s read-only`), runs
interleaved (ours, rust; rust, ours; …). Measured points:

- idle: the composer is on screen ("Ask Codex" reached the terminal), 2 s have passed and
  the tree's RSS has settled (moved < 1 MB in 0.5 s);
- streamed: a 20,000-delta answer was sent, its last word reached the terminal, and the
  tree has settled again;
- peak: the largest sum of RSS seen over the run (sampled every 50 ms).

"The tree" is the program and its descendants, and any process whose command line names the
run's CODEX_HOME: the app-server daemon codex-rust's plain TUI can start is detached, not
its child (with `-c` overrides, as here, 0.169 was seen to run the session in-process and
start none; `--no-daemon-row` adds a `codex-rust --no-daemon` column). Such processes are
stopped after each run. RSS counts shared pages
(the interpreter, libraries) once per process; PSS (from /proc/PID/smaps_rollup, when the
kernel has it) splits them between the processes sharing them: the sum of PSS is what the
tree really costs the machine. Medians of the runs; the last column is the median of the
per-run ratios ours ÷ rust.

Run: .venv/bin/python tests/bench/tui_memory.py [--runs N] [--rust PATH] [--deltas N]
The Rust CLI is `$CODEX_RUST`, else `codex-rust` on PATH; without it only ours is measured.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.support.model_server import ModelServer  # noqa: E402
from tests.support.sse import message, turn, usage  # noqa: E402

OURS = str(Path(sys.executable).parent / "codex")
MODEL = ["-c", 'model="gpt-5.1-codex"']
READY = b"sk Codex to do anything"
"""The composer's placeholder (its first letter may be drawn apart, under the cursor)."""
END = "THE-END-MARKER"
SMAPS_ROLLUP = Path("/proc/self/smaps_rollup").exists()


def _proc_table() -> dict[int, tuple[int, str]]:
    """pid → (parent pid, command line) of every process we may read."""
    table: dict[int, tuple[int, str]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                ppid = int(handle.read().rsplit(b")", 1)[1].split()[1])
            with open(f"/proc/{entry.name}/cmdline", "rb") as handle:
                cmdline = handle.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        table[int(entry.name)] = (ppid, cmdline)
    return table


def tree(root: int, detached_marker: str | None = None) -> dict[int, str]:
    """pid → command line of `root`, its descendants and (when `detached_marker` is given)
    every process whose command line contains it, with their descendants."""
    table = _proc_table()
    members = {root} if root in table else set()
    if detached_marker:
        members |= {pid for pid, (_, cmd) in table.items() if detached_marker in cmd}
    grew = True
    while grew:
        grew = False
        for pid, (ppid, _) in table.items():
            if ppid in members and pid not in members:
                members.add(pid)
                grew = True
    return {pid: table[pid][1] for pid in members}


def _status_kb(pid: int, key: bytes) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            for line in handle:
                if line.startswith(key):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def rss_kb(pid: int) -> int:
    """Resident set size of one process, KiB (0 when it is gone)."""
    return _status_kb(pid, b"VmRSS:")


def pss_kb(pid: int) -> int:
    """Proportional set size of one process, KiB (0 when unknown or gone)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            for line in handle:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def role(cmdline: str, root: bool) -> str:
    """A short name for a process of the tree."""
    if root:
        return "tui"
    if "pid-update-loop" in cmdline:
        return "daemon-pid-loop"
    if "--managed-daemon" in cmdline:
        return "daemon"
    if "app-server" in cmdline or "app_server" in cmdline:
        return "app-server"
    return Path(cmdline.split(" ", 1)[0]).name or "?"


@dataclass
class Snapshot:
    """RSS and PSS (KiB) of the tree at one moment, in total and by role."""

    rss: int = 0
    pss: int = 0
    roles: dict[str, tuple[int, int]] = field(default_factory=dict)


def snapshot(root: int, marker: str | None) -> Snapshot:
    shot = Snapshot()
    for pid, cmdline in tree(root, marker).items():
        rss, pss = rss_kb(pid), pss_kb(pid)
        if not rss:
            continue  # gone, or a zombie
        name = role(cmdline, pid == root)
        old = shot.roles.get(name, (0, 0))
        shot.roles[name] = (old[0] + rss, old[1] + pss)
        shot.rss += rss
        shot.pss += pss
    return shot


def settled(root: int, marker: str | None, timeout: float = 15.0) -> Snapshot:
    """The tree's snapshot once it has settled: at least 2 s from now, then until its RSS
    moved less than 1 MB over half a second (at most `timeout` s: a warm-up thread or a
    shell snapshot may still be loading after the screen is up)."""
    time.sleep(2.0)
    deadline = time.monotonic() + timeout
    shot = snapshot(root, marker)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        again = snapshot(root, marker)
        if abs(again.rss - shot.rss) < 1024:
            return again
        shot = again
    return shot


class Sampler:
    """Samples the tree's summed RSS every `interval` s in a thread; keeps the peak."""

    def __init__(self, root: int, marker: str | None, interval: float = 0.05) -> None:
        self.root, self.marker, self.interval = root, marker, interval
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            total = sum(rss_kb(pid) for pid in tree(self.root, self.marker))
            self.peak = max(self.peak, total)
            self._stop.wait(self.interval)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join(timeout=5)
        return self.peak


class Pty:
    """The program in a 110×36 pty; a thread reads everything it writes (and keeps only a
    tail, enough to find the markers)."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        import pexpect

        self.child = pexpect.spawn(
            argv[0], argv[1:], cwd=str(cwd), env=env, dimensions=(36, 110), encoding=None
        )
        self.child.delaybeforesend = None
        self._data = bytearray()
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.child.child_fd, 1 << 20)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self._data += chunk

    def mark(self) -> int:
        with self._lock:
            return len(self._data)

    def wait_for(self, needle: bytes, since: int = 0, timeout: float = 120) -> int:
        """Wait until `needle` was written after offset `since`; returns the offset after it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                at = self._data.find(needle, max(0, since - len(needle)))
            if at >= 0:
                return at + len(needle)
            if not self.child.isalive():
                break
            time.sleep(0.02)
        with self._lock:
            tail = bytes(self._data[-1500:])
        raise SystemExit(f"timed out waiting for {needle!r}; last output: {tail!r}")

    def send(self, data: bytes) -> None:
        self.child.send(data)

    def close(self) -> None:
        """End the program, then wait for every process of its tree to end."""
        leftovers = tree(self.child.pid)
        self.child.terminate(force=True)
        wait_gone(leftovers)


def wait_gone(pids: Iterable[int], timeout: float = 15.0) -> None:
    """Wait (at most `timeout` s) until these processes have exited, so that one run's
    leftovers (an app-server child ending at end of input) do not load the next run."""
    deadline = time.monotonic() + timeout
    for pid in pids:
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{pid}/stat", "rb") as handle:
                    if handle.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                        break  # exited, not yet reaped
            except OSError:
                break
            time.sleep(0.02)


def stop_detached(marker: str) -> None:
    """End the processes the run left behind (codex-rust's daemon): those whose command line
    names this run's CODEX_HOME."""
    for pid, (_, cmdline) in _proc_table().items():
        if marker in cmdline and pid != os.getpid():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


@dataclass
class RunResult:
    idle: Snapshot
    streamed: Snapshot
    peak_rss: int


def one_run(argv: list[str], home: Path, project: Path, deltas: int) -> RunResult:
    """One launch: idle snapshot, a streamed answer, the snapshot after it, the peak."""
    words = [f"w{i}" + ("\n\n" if i % 40 == 39 else " ") for i in range(deltas - 1)] + [END]
    marker = str(home)
    with ModelServer() as server:
        server.add(turn(message("".join(words), chunks=words), usage=usage(input=10, output=10)))
        env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench"}
        env["TERM"] = "xterm-256color"
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        args = [*argv, "-a", "never", "-s", "read-only", *server.cli_flags(), *MODEL]
        pty = Pty(args, project, env)
        sampler = Sampler(pty.child.pid, marker)
        try:
            pty.wait_for(READY)
            idle = settled(pty.child.pid, marker)
            pty.send(b"go")
            time.sleep(0.3)
            since = pty.mark()
            pty.send(b"\r")
            pty.wait_for(END.encode(), since)
            streamed = settled(pty.child.pid, marker)
            peak = sampler.stop()
        finally:
            sampler.stop()
            pty.close()
            stop_detached(marker)
        return RunResult(idle, streamed, peak)


def _mb(kib: float) -> str:
    return f"{kib / 1024:6.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--deltas", type=int, default=20_000)
    parser.add_argument(
        "--rust", default=os.environ.get("CODEX_RUST") or shutil.which("codex-rust")
    )
    parser.add_argument(
        "--no-daemon-row", action="store_true", help="also measure `codex-rust --no-daemon`"
    )
    args = parser.parse_args()
    compileall.compile_dir(str(REPO / "codex_core"), quiet=1)
    compileall.compile_dir(str(REPO / "codex_tui"), quiet=1)
    programs: dict[str, list[str]] = {"ours": [OURS]}
    if args.rust:
        programs["rust"] = [args.rust]
        if args.no_daemon_row:
            programs["rust --no-daemon"] = [args.rust, "--no-daemon"]
    else:
        print("codex-rust not found (set CODEX_RUST or put it on PATH): ours only")
    results: dict[str, list[RunResult]] = {name: [] for name in programs}
    base = Path(tempfile.mkdtemp(prefix="codex-mem-", dir=Path.home()))
    try:
        project = base / "project"
        project.mkdir()
        for index in range(args.runs + 1):  # round 0 warms caches (and installs the daemon)
            order = list(programs.items())
            if index % 2:
                order.reverse()
            for name, argv in order:
                home = base / ("home-" + name.replace(" ", "").replace("-", ""))
                home.mkdir(exist_ok=True)
                result = one_run(argv, home, project, args.deltas)
                if index:
                    results[name].append(result)
                print(
                    f"  run {index} {name:17} idle rss {_mb(result.idle.rss)} MB "
                    f"pss {_mb(result.idle.pss)}  streamed rss {_mb(result.streamed.rss)} "
                    f"pss {_mb(result.streamed.pss)}  peak rss {_mb(result.peak_rss)}",
                    flush=True,
                )
    finally:
        for name in programs:
            stop_detached(str(base / ("home-" + name.replace(" ", "").replace("-", ""))))
        shutil.rmtree(base, ignore_errors=True)
    report(results, args.runs, args.deltas)
    return 0


def report(results: dict[str, list[RunResult]], runs: int, deltas: int) -> None:
    """Medians per program; ratios ours ÷ each other program."""
    metrics: dict[str, Callable[[RunResult], int]] = {
        "idle RSS": lambda r: r.idle.rss,
        "idle PSS": lambda r: r.idle.pss,
        f"after {deltas} deltas RSS": lambda r: r.streamed.rss,
        f"after {deltas} deltas PSS": lambda r: r.streamed.pss,
        "peak RSS (sampled)": lambda r: r.peak_rss,
    }
    if not SMAPS_ROLLUP:
        metrics = {k: v for k, v in metrics.items() if "PSS" not in k}
        print("no /proc/PID/smaps_rollup on this kernel: PSS is not measured")
    names = list(results)
    print(f"MB of the whole process tree, median of {runs} interleaved runs")
    header = f"{'':30}" + "".join(f"{n:>18}" for n in names)
    print(header + "".join(f"{'ours ÷ ' + n:>26}" for n in names[1:]))
    for label, pick in metrics.items():
        line = f"{label:30}"
        for name in names:
            line += f"{statistics.median(pick(r) for r in results[name]) / 1024:18.0f}"
        for name in names[1:]:
            ratios = [
                pick(o) / pick(t) for o, t in zip(results["ours"], results[name], strict=True)
            ]
            line += f"{statistics.median(ratios):25.2f}×"
        print(line)
    print("by process (median MB, RSS / PSS), idle → after the answer:")
    for name in names:
        roles = sorted({role for r in results[name] for role in r.idle.roles | r.streamed.roles})
        for role_name in roles:
            cells = []
            for when in ("idle", "streamed"):
                shots = [getattr(r, when).roles.get(role_name, (0, 0)) for r in results[name]]
                rss = statistics.median(s[0] for s in shots) / 1024
                pss = statistics.median(s[1] for s in shots) / 1024
                cells.append(f"{rss:5.0f} / {pss:5.0f}")
            print(f"  {name:17} {role_name:16} {cells[0]}  →  {cells[1]}")


if __name__ == "__main__":
    raise SystemExit(main())
