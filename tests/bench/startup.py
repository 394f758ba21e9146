"""Bench: median wall time of `codex --version` and of a one-turn `codex exec` against the local server.

Run: .venv/bin/python tests/bench/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.model_server import ModelServer  # noqa: E402
from tests.support.sse import message, shell_call, turn, usage  # noqa: E402

CODEX = Path(sys.executable).parent / "codex"


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, stdin=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv[1:3]} failed: {done.stderr.decode()[-400:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp, ModelServer() as server:
        home = Path(tmp) / "home"
        home.mkdir()
        work = Path(tmp) / "work"
        work.mkdir()
        env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench"}
        # Installed users run from cached bytecode; measure that, not first-run compilation.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        compileall.compile_dir(str(Path(__file__).resolve().parents[2]), quiet=1)
        version = [timed([str(CODEX), "--version"], work, env) for _ in range(runs)]
        argv = [
            str(CODEX),
            "exec",
            "--skip-git-repo-check",
            "--json",
            *server.cli_flags(),
            "say hi",
        ]
        plain, with_tool = [], []
        for _ in range(runs):
            server.add(turn(message("hi"), usage=usage(input=10, output=1)))
            plain.append(timed(argv, work, env))
        for _ in range(runs):
            server.add(
                turn(shell_call(["bash", "-lc", "true"])),
                turn(message("done"), usage=usage(input=10, output=1)),
            )
            with_tool.append(timed(argv, work, env))
    ms = lambda xs: f"{statistics.median(xs) * 1000:.0f} ms"  # noqa: E731
    print(f"codex --version                       median {ms(version)}  ({runs} runs)")
    print(f"codex exec, one turn, answer only     median {ms(plain)}  ({runs} runs)")
    print(f"codex exec, one sandboxed shell call  median {ms(with_tool)}  ({runs} runs)")


if __name__ == "__main__":
    main()
