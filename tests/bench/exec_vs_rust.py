"""Bench: a `codex exec` turn running 5 sandboxed commands, ours beside the Rust Codex CLI.

Both binaries talk to the same scripted model server on 127.0.0.1 and run the same five
commands under their default read-only sandbox; the whole process is timed (median).

Run: .venv/bin/python tests/bench/exec_vs_rust.py [--runs N] [--rust PATH]
The Rust CLI is looked up as `$CODEX_RUST`, else `codex-rust` on PATH
(install: `npm install @openai/codex@0.169.0`; the binary is under
`node_modules/@openai/codex-linux-x64/vendor/*/bin/codex`).
"""

from __future__ import annotations

import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.against_rust import parser_with_runs  # noqa: E402
from tests.support.model_server import ModelServer  # noqa: E402
from tests.support.sse import function_call, message, shell_call, turn, usage  # noqa: E402

CODEX = Path(sys.executable).parent / "codex"
COMMANDS = ["true", "echo hi", "ls", "pwd", "cat /etc/hostname"]


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, stdin=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv[0]} failed: {done.stderr.decode()[-400:]}")
    return elapsed


def script(server: ModelServer, tool: str) -> None:
    """One turn: five command calls in sequence, then an answer."""
    for i, command in enumerate(COMMANDS):
        if tool == "shell":
            call = shell_call(["bash", "-lc", command], call_id=f"c{i}")
        else:
            call = function_call("exec_command", json.dumps({"cmd": command}), call_id=f"c{i}")
        server.add(turn(call))
    server.add(turn(message("done"), usage=usage(input=10, output=1)))


def main() -> None:
    parser = parser_with_runs(10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=Path.home()) as tmp, ModelServer() as server:
        work = Path(tmp) / "work"
        work.mkdir()
        flags = ["exec", "--skip-git-repo-check", "--json", *server.cli_flags()]
        compileall.compile_dir(str(Path(__file__).resolve().parents[2]), quiet=1)
        binaries = [("python codex", str(CODEX), "shell")]
        if args.rust:
            binaries.append(("rust codex 0.169", args.rust, "exec_command"))
        else:
            print("rust codex: not found (set CODEX_RUST or put codex-rust on PATH); ours only")
        envs = {}
        for _, _, tool in binaries:
            home = Path(tmp) / f"home-{tool}"
            home.mkdir()
            env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench"}
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            envs[tool] = env
        times: dict[str, list[float]] = {label: [] for label, _, _ in binaries}
        # Alternate ours and theirs so a busy moment of a shared machine hits both.
        for run in range(args.runs + 1):
            for label, binary, tool in binaries:
                script(server, tool)
                elapsed = timed([binary, *flags, "run five commands"], work, envs[tool])
                if run:  # the first round warms caches
                    times[label].append(elapsed)
    for label, runs in times.items():
        ms = sorted(t * 1000 for t in runs)
        print(
            f"{label:18} exec turn, 5 sandboxed commands  median {statistics.median(ms):.0f} ms"
            f"  (range {ms[0]:.0f}–{ms[-1]:.0f}, {len(ms)} runs)"
        )


if __name__ == "__main__":
    main()
