"""Bench: TUI launch → composer on screen, ours beside the Rust Codex CLI 0.169, in a pty.

Both start in the same 110×36 pseudo-terminal against the same scripted model server with
`-a on-request -s read-only` (no trust screen), runs alternating ours/theirs. "Composer
ready" is the moment the composer's placeholder "Ask Codex to do anything" is on the
screen, for both (the Rust CLI paints it with its loading screen, before the session is
configured; so does ours, with the first frame). For ours a second time is printed: when
Textual has painted its own composer over the first frame (typed keys are echoed by the
first frame and handed to it, not lost; tests/e2e/test_tui_first_frame.py).

Run: .venv/bin/python tests/bench/tui_vs_rust.py [--runs N] [--rust PATH]
The Rust CLI is `$CODEX_RUST`, else `codex-rust` on PATH. CODEX_HOME lives under the home
directory because the Rust CLI refuses helper links under /tmp.
"""

from __future__ import annotations

import compileall
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.bench.against_rust import parser_with_runs  # noqa: E402
from tests.support.model_server import ModelServer  # noqa: E402

ANSI = re.compile(
    r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>PX^_\]][^\x1b\x07]*(?:\x07|\x1b\\)?"
)
READY = "Ask Codex to do anything"
CODEX = Path(sys.executable).parent / "codex"


def launch(binary: str, args: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Seconds until the placeholder shows once, and until it shows twice (or 0.0)."""
    import pexpect

    started = time.perf_counter()
    child = pexpect.spawn(
        binary, args, cwd=str(cwd), env=env, dimensions=(36, 110), encoding="utf-8"
    )
    screen, first, second = "", 0.0, 0.0
    deadline = started + 10
    try:
        while not second and time.perf_counter() < deadline:
            try:
                screen += ANSI.sub("", child.read_nonblocking(65536, timeout=0.05))
            except pexpect.TIMEOUT:
                if first and time.perf_counter() - started > first + 1.5:
                    break  # the Rust CLI paints the placeholder once
                continue
            count = screen.count(READY)
            if count and not first:
                first = time.perf_counter() - started
            if count > 1:
                second = time.perf_counter() - started
    finally:
        child.terminate(force=True)
    if not first:
        raise SystemExit(f"{binary} never showed the composer:\n{screen[-1500:]}")
    return first, second


def describe(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    return (
        f"median {statistics.median(ms):4.0f} ms  (range {ms[0]:.0f}–{ms[-1]:.0f}, {len(ms)} runs)"
    )


def main() -> None:
    parser = parser_with_runs(10)
    args = parser.parse_args()
    compileall.compile_dir(str(REPO), quiet=1)
    ours_paint: list[float] = []
    ours_textual: list[float] = []
    rust_paint: list[float] = []
    with ModelServer() as server, tempfile.TemporaryDirectory(dir=Path.home()) as tmp:
        flags = ["-a", "on-request", "-s", "read-only", *server.cli_flags()]
        project = Path(tmp, "project")
        project.mkdir()
        envs = {}
        for name in ("ours", "rust"):
            home = Path(tmp, f"home-{name}")
            home.mkdir()
            env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench"}
            env.update(TERM="xterm-256color")
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            envs[name] = env
        for run in range(args.runs + 1):  # the first round warms caches
            first, second = launch(str(CODEX), flags, project, envs["ours"])
            if run:
                ours_paint.append(first)
                ours_textual.append(second)
            if args.rust:
                first, _ = launch(args.rust, flags, project, envs["rust"])
                if run:
                    rust_paint.append(first)
    print(f"python codex  composer on screen (first frame)   {describe(ours_paint)}")
    print(f"python codex  composer painted by Textual        {describe(ours_textual)}")
    if rust_paint:
        print(f"rust codex    composer on screen (loading screen) {describe(rust_paint)}")
    else:
        print("rust codex: not found (set CODEX_RUST or put codex-rust on PATH)")


if __name__ == "__main__":
    main()
