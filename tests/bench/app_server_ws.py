"""Bench: app-server `turn/start` → first `item/agentMessage/delta`, over stdio and over a
websocket on 127.0.0.1, ours beside the Rust Codex CLI 0.169, same scripted model server.

Per binary and transport: RUNS fresh servers; in each, a thread's first turn ("cold") and
then WARM more turns on the same thread. Medians in ms. The issue's goal: the websocket's
first delta within 20 ms of the stdio figure.

Run: .venv/bin/python tests/bench/app_server_ws.py [--runs N] [--warm N] [--rust PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from websockets.sync.client import connect  # noqa: E402

from tests.support.model_server import ModelServer  # noqa: E402
from tests.support.sse import message, turn  # noqa: E402

CODEX = Path(sys.executable).parent / "codex"
MODEL = ["-c", 'model="gpt-5.1-codex"']
Message = dict[str, Any]


class Stdio:
    """A server on a pipe."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [*argv, "--listen", "stdio://"],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def send(self, msg: Message) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def recv(self) -> Message:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("the server exited early")
        return json.loads(line)  # type: ignore[no-any-return]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        _reap(self.proc)


class Websocket:
    """A server on ws://127.0.0.1:0 and one connection to it."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.proc = subprocess.Popen(
            [*argv, "--listen", "ws://127.0.0.1:0"],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert self.proc.stderr is not None
        url = None
        deadline = time.monotonic() + 30
        while url is None and time.monotonic() < deadline:
            line = self.proc.stderr.readline().decode()
            if not line:
                raise SystemExit("the server exited before its banner")
            found = re.search(r"listening on: (ws://\S+)", line)
            url = found.group(1) if found else None
        if url is None:
            raise SystemExit("no banner within 30 s")
        stderr = self.proc.stderr
        threading.Thread(target=stderr.read, daemon=True).start()  # keep draining its logs
        self.ws = connect(url, open_timeout=10, compression=None).__enter__()

    def send(self, msg: Message) -> None:
        self.ws.send(json.dumps(msg))

    def recv(self) -> Message:
        return json.loads(self.ws.recv(timeout=30))  # type: ignore[no-any-return]

    def close(self) -> None:
        self.ws.close()
        self.proc.terminate()
        _reap(self.proc)


def _reap(proc: subprocess.Popen[bytes]) -> None:
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _until(conn: Stdio | Websocket, predicate: Callable[[Message], bool]) -> Message:
    while True:
        msg = conn.recv()
        if predicate(msg):
            return msg


def session(
    transport: type[Stdio | Websocket],
    binary: str,
    server: ModelServer,
    home: Path,
    cwd: Path,
    turns: int,
) -> list[float]:
    """One server: a thread and `turns` turns; turn/start → first delta of each, in ms."""
    for _ in range(turns):
        server.add(turn(message("Zebra42 answers", chunks=["Zebra42", " answers"])))
    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench"}
    conn = transport([binary, *server.cli_flags(), *MODEL, "app-server"], env, cwd)
    conn.send(
        {"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "b", "version": "1"}}}
    )
    _until(conn, lambda m: m.get("id") == 1)
    conn.send({"method": "initialized"})
    conn.send({"id": 2, "method": "thread/start", "params": {"cwd": str(cwd)}})
    thread_id = _until(conn, lambda m: m.get("id") == 2)["result"]["thread"]["id"]
    latencies = []
    for index in range(turns):
        params = {"threadId": thread_id, "input": [{"type": "text", "text": f"hi {index}"}]}
        sent = time.perf_counter()
        conn.send({"id": 10 + index, "method": "turn/start", "params": params})
        _until(conn, lambda m: m.get("method") == "item/agentMessage/delta")
        latencies.append((time.perf_counter() - sent) * 1000)
        _until(conn, lambda m: m.get("method") == "turn/completed")
    conn.close()
    return latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--warm", type=int, default=5)
    parser.add_argument(
        "--rust", default=os.environ.get("CODEX_RUST") or shutil.which("codex-rust")
    )
    args = parser.parse_args()
    binaries = {"ours": str(CODEX)}
    if args.rust:
        binaries["codex-rust"] = args.rust
    rows: list[tuple[str, str, float, float]] = []
    with ModelServer() as server, tempfile.TemporaryDirectory() as tmp:
        for name, binary in binaries.items():
            # The Rust CLI refuses some state under /tmp; its CODEX_HOME lives in $HOME.
            base = Path(tmp) if name == "ours" else Path(tempfile.mkdtemp(dir=Path.home()))
            home, cwd = base / "home", base / "ws"
            home.mkdir(exist_ok=True)
            cwd.mkdir(exist_ok=True)
            for label, transport in (("stdio", Stdio), ("ws", Websocket)):
                cold, warm = [], []
                for _ in range(args.runs):
                    got = session(transport, binary, server, home, cwd, 1 + args.warm)
                    cold.append(got[0])
                    warm.extend(got[1:])
                rows.append((name, label, statistics.median(cold), statistics.median(warm)))
            if name != "ours":
                shutil.rmtree(base, ignore_errors=True)
    print(f"{'binary':<11} {'transport':<9} {'first turn':>11} {'later turns':>12}  (median ms)")
    for name, label, cold, warm in rows:
        print(f"{name:<11} {label:<9} {cold:>11.1f} {warm:>12.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
