"""Bench (issue 25): process start → first model request for `codex exec "hi"` with no
skills or hooks, and with 300 skills and 5 trusted hooks (a SessionStart and a
UserPromptSubmit hook run before that request in both tools), ours beside the Rust CLI
0.169 when `codex-rust` is on PATH. Prints medians and spread; not part of the suite.

Run: .venv/bin/python tests/bench/extensions.py [--runs N]
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

from codex_core.hooks.sources import load_hooks  # noqa: E402
from tests.support.model_server import ModelServer  # noqa: E402
from tests.support.sse import message, turn  # noqa: E402

OURS = str(Path(sys.executable).parent / "codex")
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")


def populate(home: Path) -> None:
    """300 skills and 5 trusted hooks (one per event, each `true`)."""
    for index in range(300):
        folder = home / "skills" / f"skill-{index:03d}"
        folder.mkdir(parents=True)
        text = f"---\nname: skill-{index:03d}\ndescription: Does thing number {index} well\n---\n"
        (folder / "SKILL.md").write_text(text)
    hooks = {e: [{"hooks": [{"type": "command", "command": "true", "timeout": 5}]}] for e in EVENTS}
    (home / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    trust = "".join(
        f'[hooks.state."{h.key}"]\ntrusted_hash = "{h.current_hash}"\n'
        for h in load_hooks(home, {}, None).hooks
    )
    (home / "config.toml").write_text("[skills.bundled]\nenabled = false\n" + trust)


def first_request(binary: str, home: Path, work: Path, server: ModelServer) -> float:
    env = {
        **os.environ,
        "CODEX_HOME": str(home),
        "OPENAI_API_KEY": "sk-bench",
        "HOME": str(home.parent),
    }
    server.add(turn(message("hi")))
    before = len(server.requests)
    start = time.monotonic()
    argv = [binary, "exec", "--skip-git-repo-check", *server.cli_flags(), "-m", "mock-model", "hi"]
    done = subprocess.run(argv, cwd=work, env=env, capture_output=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0 or len(server.requests) == before:
        raise SystemExit(f"{binary} failed: {done.stderr.decode()[-400:]}")
    return (server.requests[before].received_at - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    binaries = {"ours": OURS}
    if rust := shutil.which("codex-rust"):
        binaries["rust"] = rust
    base = Path(tempfile.mkdtemp(dir=Path.home() / ".cache"))  # 0.169 refuses a CODEX_HOME in /tmp
    try:
        work = base / "work"
        work.mkdir()
        with ModelServer() as server:
            for setup in ("none", "300 skills + 5 hooks"):
                for name, binary in binaries.items():
                    home = base / f"{name}-{setup.split()[0]}"
                    home.mkdir()
                    if setup != "none":
                        populate(home)
                    first_request(binary, home, work, server)  # warm caches
                    times = sorted(first_request(binary, home, work, server) for _ in range(runs))
                    print(
                        f"{setup:22} {name:5} median {statistics.median(times):6.0f} ms"
                        f"  (min {times[0]:.0f}, max {times[-1]:.0f}, n={runs})"
                    )
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
