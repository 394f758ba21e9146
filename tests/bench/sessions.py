"""Benchmark: first page of `list_sessions` over 10,000 rollouts, cold (no catalog) and warm.

Run: `.venv/bin/python tests/bench/sessions.py [--files N] [--keep]`. Goals on the project
machine: warm first page under 100 ms, cold under 3 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from codex_core.rollout import list_sessions
from codex_core.rollout.catalog import CATALOG_NAME

DAY = 86_400
INSTRUCTIONS = "You are a coding agent. " * 400  # ~10 KB, like real base instructions
PROJECTS = [f"/home/dev/project-{n}" for n in range(20)]


def _line(stamp: str, line_type: str, payload: dict[str, Any]) -> str:
    record = {"timestamp": stamp, "type": line_type, "payload": payload}
    return json.dumps(record, separators=(",", ":")) + "\n"


def _user(text: str) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def _rollout(rng: random.Random, session_id: str, started: float, target_bytes: int) -> str:
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(started))
    cwd = rng.choice(PROJECTS)
    meta = {
        "id": session_id,
        "timestamp": stamp,
        "cwd": cwd,
        "originator": "codex_cli_rs",
        "cli_version": "0.44.0",
        "instructions": INSTRUCTIONS if rng.random() < 0.3 else None,
        "source": "cli",
        "model_provider": rng.choice(["openai", "openai", "oss"]),
        "git": {"commit_hash": uuid.uuid4().hex, "branch": f"feature/{rng.randrange(50)}"},
    }
    parts = [
        _line(stamp, "session_meta", meta),
        _line(
            stamp, "response_item", _user("<user_instructions>\nRun tests.\n</user_instructions>")
        ),
        _line(stamp, "response_item", _user(f"<environment_context>{cwd}</environment_context>")),
    ]
    if rng.random() < 0.97:  # a few sessions were opened and closed without a message
        text = f"Please look at issue #{rng.randrange(9999)} and fix the failing tests"
        parts.append(_line(stamp, "response_item", _user(text)))
        parts.append(_line(stamp, "event_msg", {"type": "user_message", "message": text}))
    size = sum(len(p) for p in parts)
    n = 0
    while size < target_bytes:
        output = "log line\n" * rng.randrange(50, 3000)
        call_id = f"call_{n}"
        chunk = _line(
            stamp,
            "response_item",
            {
                "type": "function_call",
                "name": "shell",
                "arguments": '{"command":["ls"]}',
                "call_id": call_id,
            },
        ) + _line(
            stamp,
            "response_item",
            {"type": "function_call_output", "call_id": call_id, "output": output},
        )
        parts.append(chunk)
        size += len(chunk)
        n += 1
    return "".join(parts)


def generate(home: Path, count: int, seed: int = 7) -> int:
    """Write `count` rollouts spread over a year; returns the total bytes written."""
    rng = random.Random(seed)
    now = time.time()
    total = 0
    for index in range(count):
        started = now - rng.uniform(0, 365 * DAY)
        big = index % 250 == 0  # 40 of 10,000 files are a few MB
        target = rng.randrange(2_000_000, 5_000_000) if big else int(rng.lognormvariate(9.5, 1.0))
        session_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        local = time.localtime(started)
        folder = home / "sessions" / time.strftime("%Y/%m/%d", local)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"rollout-{time.strftime('%Y-%m-%dT%H-%M-%S', local)}-{session_id}.jsonl"
        body = _rollout(rng, session_id, started, target)
        path.write_text(body)
        updated = started + rng.uniform(0, 3 * DAY)
        os.utime(path, (updated, updated))
        total += len(body)
    return total


def _timed(home: Path, **kwargs: Any) -> tuple[float, int]:
    started = time.perf_counter()
    page = list_sessions(home, **kwargs)
    return (time.perf_counter() - started) * 1000, len(page.items)


def main() -> int:
    """Generate, then time cold and warm first pages; exit 1 if a goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the generated CODEX_HOME")
    ns = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="codex-bench-home-"))
    try:
        started = time.perf_counter()
        total = generate(home, ns.files)
        print(
            f"generated {ns.files} rollouts, {total / 1e6:.0f} MB, "
            f"in {time.perf_counter() - started:.1f} s at {home}"
        )
        os.sync()  # let writeback of the generated files finish before timing reads
        (home / CATALOG_NAME).unlink(missing_ok=True)
        cold, shown = _timed(home)
        warm_runs = [_timed(home)[0] for _ in range(ns.runs)]
        warm = statistics.median(warm_runs)
        print(f"first page cold (no catalog): {cold:7.1f} ms ({shown} sessions)")
        print(f"first page warm (median of {ns.runs}): {warm:7.1f} ms")
        (home / CATALOG_NAME).unlink()
        cold_cwd, shown_cwd = _timed(home, cwd=PROJECTS[3])
        warm_cwd = statistics.median(_timed(home, cwd=PROJECTS[3])[0] for _ in range(ns.runs))
        print(f"cwd-filtered page cold: {cold_cwd:7.1f} ms, warm: {warm_cwd:7.1f} ms ({shown_cwd})")
        ok = warm < 100 and cold < 3000
        print("goals (warm < 100 ms, cold < 3 s):", "met" if ok else "MISSED")
        return 0 if ok else 1
    finally:
        if not ns.keep:
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
