"""Bench: `codex app-server` latencies, ours beside the Rust Codex CLI 0.169, same scripted server.

Per run, over a real pipe: spawn → `initialize` result, `initialize` → `thread/start` result
(goal ≤ 300 ms), `turn/start` → first `item/agentMessage/delta`, and spawn → first delta.
For comparison, `codex exec --json` spawn → first agent message line (exec prints no deltas),
and our TUI in a pty: Enter on a prompt → the first delta's text painted on the screen.

Run: .venv/bin/python tests/bench/app_server.py [--runs N] [--rust PATH]
The Rust CLI is `$CODEX_RUST`, else `codex-rust` on PATH; its CODEX_HOME lives outside /tmp.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.model_server import ModelServer  # noqa: E402
from tests.support.sse import message, turn  # noqa: E402

CODEX = Path(sys.executable).parent / "codex"
MODEL = ["-c", 'model="gpt-5.1-codex"']
FIRST, SECOND, REST = "Zebra42", "Yak77", " answers"
"""The scripted answers' deltas; the first of each is a word no screen shows otherwise."""


def _read_until(proc: subprocess.Popen[bytes], predicate: object) -> dict[str, object]:
    assert proc.stdout is not None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"server exited early: {proc.args}")
        msg = json.loads(line)
        if predicate(msg):  # type: ignore[operator]
            return msg  # type: ignore[no-any-return]


def app_server_run(binary: str, server: ModelServer, home: Path, cwd: Path) -> dict[str, float]:
    """One app-server session; returns the latencies in ms."""
    server.add(turn(message(FIRST + REST, chunks=[FIRST, REST])))
    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench"}
    argv = [binary, *server.cli_flags(), *MODEL, "app-server", "--listen", "stdio://"]
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None

    def send(message: dict[str, object]) -> None:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(message).encode() + b"\n")
        proc.stdin.flush()

    send(
        {
            "id": 1,
            "method": "initialize",
            "params": {"clientInfo": {"name": "bench", "version": "1"}},
        }
    )
    _read_until(proc, lambda m: m.get("id") == 1)
    initialized = time.perf_counter()
    send({"method": "initialized"})
    send({"id": 2, "method": "thread/start", "params": {"cwd": str(cwd)}})
    started = _read_until(proc, lambda m: m.get("id") == 2)
    thread_started = time.perf_counter()
    thread_id = started["result"]["thread"]["id"]  # type: ignore[index]
    send(
        {
            "id": 3,
            "method": "turn/start",
            "params": {"threadId": thread_id, "input": [{"type": "text", "text": "hi"}]},
        }
    )
    turn_sent = time.perf_counter()
    _read_until(proc, lambda m: m.get("method") == "item/agentMessage/delta")
    first_delta = time.perf_counter()
    _read_until(proc, lambda m: m.get("method") == "turn/completed")
    proc.stdin.close()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return {
        "spawn→initialize": (initialized - start) * 1000,
        "initialize→thread/start": (thread_started - initialized) * 1000,
        "turn/start→first delta": (first_delta - turn_sent) * 1000,
        "spawn→first delta": (first_delta - start) * 1000,
    }


def exec_run(binary: str, server: ModelServer, home: Path, cwd: Path) -> dict[str, float]:
    """`codex exec --json`: spawn → first agent message line, in ms."""
    server.add(turn(message("hello world", chunks=["hello", " world"])))
    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench"}
    argv = [binary, "exec", "--json", "--skip-git-repo-check", *server.cli_flags(), *MODEL, "hi"]
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    _read_until(proc, lambda m: "agent_message" in json.dumps(m))
    first = time.perf_counter()
    proc.wait(20)
    return {"exec spawn→first message": (first - start) * 1000}


def tui_run(server: ModelServer, home: Path, cwd: Path) -> dict[str, float]:
    """Our TUI in a pty: Enter on a prompt → the first delta painted on the (emulated) screen,
    for the session's first prompt and for a second one (the session is up by then)."""
    import pexpect
    import pyte

    server.add(turn(message(FIRST + REST, chunks=[FIRST, REST])))
    server.add(turn(message(SECOND + REST, chunks=[SECOND, REST])))
    env = {
        **os.environ,
        "CODEX_HOME": str(home),
        "OPENAI_API_KEY": "sk-bench",
        "TERM": "xterm-256color",
    }
    args = ["-a", "on-request", "-s", "read-only", *server.cli_flags(), *MODEL]
    child = pexpect.spawn(
        str(CODEX), args, cwd=str(cwd), env=env, dimensions=(36, 110), encoding="utf-8"
    )
    child.delaybeforesend = None  # pexpect sleeps 50 ms before every send by default
    screen = pyte.Screen(110, 36)
    stream = pyte.Stream(screen)

    def wait_for(text: str) -> None:
        while not any(text in line for line in screen.display):
            try:
                stream.feed(child.read_nonblocking(65536, timeout=20))
            except (pexpect.TIMEOUT, pexpect.EOF) as err:
                shown = "\n".join(screen.display)
                raise SystemExit(f"the TUI never showed {text!r}:\n{shown}") from err

    wait_for("Ask Codex to do anything")
    latencies: list[float] = []
    for prompt, answer in (("hi", FIRST), ("again", SECOND)):
        child.send(prompt)
        wait_for(prompt)
        sent = time.perf_counter()
        child.send("\r")
        wait_for(answer)
        latencies.append((time.perf_counter() - sent) * 1000)
        wait_for(REST.strip())
    child.sendcontrol("c")
    child.sendcontrol("d")
    try:
        child.expect(pexpect.EOF, timeout=10)
    except pexpect.TIMEOUT:
        child.terminate(force=True)
    return {
        "TUI 1st prompt→delta painted": latencies[0],
        "TUI 2nd prompt→delta painted": latencies[1],
    }


def median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--rust", default=os.environ.get("CODEX_RUST") or shutil.which("codex-rust")
    )
    args = parser.parse_args()
    binaries = {"ours": str(CODEX)}
    if args.rust:
        binaries["codex-rust"] = args.rust
    results: dict[str, dict[str, float]] = {}
    with ModelServer() as server, tempfile.TemporaryDirectory() as tmp:
        for name, binary in binaries.items():
            # The Rust CLI refuses a CODEX_HOME under /tmp for some state; keep it in $HOME.
            home = Path(tmp if name == "ours" else tempfile.mkdtemp(dir=Path.home())) / "home"
            home.mkdir(parents=True, exist_ok=True)
            cwd = Path(tmp) / f"ws-{name}"
            cwd.mkdir(exist_ok=True)
            runs = [app_server_run(binary, server, home, cwd) for _ in range(args.runs)]
            execs = [exec_run(binary, server, home, cwd) for _ in range(args.runs)]
            results[name] = {**median_of(runs), **median_of(execs)}
            if name == "ours":
                tuis = [tui_run(server, home, cwd) for _ in range(args.runs)]
                results[name].update(median_of(tuis))
            if name != "ours":
                shutil.rmtree(home.parent, ignore_errors=True)
    keys = list(results["ours"])
    print(f"median of {args.runs} runs (ms)")
    print(f"{'':32}" + "".join(f"{name:>14}" for name in results))
    for key in keys:
        row = "".join(
            f"{results[name][key]:14.1f}" if key in results[name] else f"{'-':>14}"
            for name in results
        )
        print(f"{key:32}{row}")
    goal = results["ours"]["initialize→thread/start"]
    print(
        f"goal initialize→thread/start ≤ 300 ms: {'met' if goal <= 300 else 'MISSED'} ({goal:.0f} ms)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
