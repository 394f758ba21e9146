"""What the benches that time us against codex-rust share: their two common flags and how a
column of timings is printed."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics


def parser_with_runs(runs: int, description: str | None = None) -> argparse.ArgumentParser:
    """A parser with `--runs` (default `runs`) and `--rust` (the 0.169 binary: $CODEX_RUST,
    else `codex-rust` on PATH)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument(
        "--rust", default=os.environ.get("CODEX_RUST") or shutil.which("codex-rust")
    )
    return parser


def spread(ms: list[float]) -> str:
    """`median (fastest–slowest)` of timings in milliseconds."""
    ms = sorted(ms)
    return f"{statistics.median(ms):6.0f} ({ms[0]:.0f}–{ms[-1]:.0f})"
