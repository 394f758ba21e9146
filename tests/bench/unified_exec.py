"""Bench: the `exec_command` round trip of `true` inside a turn, ours beside the Rust Codex CLI.

Both binaries run `codex exec` against the same scripted model server; the server stamps
each request's arrival, and the round trip is the time from the request answered with the
`exec_command` call to the request carrying its output (stream, approval check, sandboxed
spawn, collection, next request). Median of N runs each, default sandbox (read-only).

Run: .venv/bin/python tests/bench/unified_exec.py [--runs N] [--rust PATH]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.against_rust import parser_with_runs  # noqa: E402
from tests.support.sse import function_call, message, turn, usage  # noqa: E402
from tests.unified_exec.support import SessionIdServer  # noqa: E402

CODEX = Path(sys.executable).parent / "codex"


class StampingServer(SessionIdServer):
    """Records when each request arrives."""

    stamps: list[float]

    def handle(self, handler: Any) -> None:
        """Stamp, then serve."""
        self.stamps.append(time.perf_counter())
        super().handle(handler)


def round_trip(binary: str, home: Path, cwd: Path) -> float:
    server = StampingServer()
    server.stamps = []
    with server:
        server.add(
            turn(function_call("exec_command", {"cmd": "true"}, call_id="c1")),
            turn(message("done"), usage=usage(input=1, output=1)),
        )
        env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench"}
        done = subprocess.run(
            [binary, "exec", "--skip-git-repo-check", *server.cli_flags(), "go"],
            cwd=cwd, env=env, capture_output=True, stdin=subprocess.DEVNULL, timeout=60,
        )  # fmt: skip
        if done.returncode != 0 or len(server.stamps) != 2:
            raise SystemExit(f"{binary} failed: {done.stderr.decode()[-400:]}")
        return server.stamps[1] - server.stamps[0]


def main() -> None:
    parser = parser_with_runs(10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "work").mkdir()
        contenders = [("python", str(CODEX))]
        if args.rust:
            contenders.append(("rust", args.rust))
        for name, binary in contenders:
            home = root / f"home-{name}"
            home.mkdir()
            round_trip(binary, home, root / "work")  # warm-up
            times = [round_trip(binary, home, root / "work") for _ in range(args.runs)]
            print(
                f"{name:7s} exec_command `true` round trip: median "
                f"{statistics.median(times) * 1000:.1f} ms (min {min(times) * 1000:.1f}, "
                f"max {max(times) * 1000:.1f}, n={len(times)})"
            )


if __name__ == "__main__":
    main()
