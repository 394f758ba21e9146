"""Benchmark: median time to classify a `bash -lc` script as known-safe (prints the result)."""

from __future__ import annotations

import statistics
import time

SCRIPT = "git status --porcelain && git diff --stat | head -n 40; rg -n 'TODO' src | wc -l"
ROUNDS = 2000


def main() -> None:
    """Time the first (parser-building) call, then the median of warm calls."""
    start = time.perf_counter()
    from codex_core.command_safety import is_known_safe_command

    import_ms = (time.perf_counter() - start) * 1000
    argv = ["bash", "-lc", SCRIPT]
    start = time.perf_counter()
    assert is_known_safe_command(argv)
    first_ms = (time.perf_counter() - start) * 1000
    samples = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        is_known_safe_command(argv)
        samples.append(time.perf_counter() - start)
    median_us = statistics.median(samples) * 1e6
    print(f"import codex_core.command_safety: {import_ms:.1f} ms")
    print(f"first classification (builds the parser): {first_ms:.2f} ms")
    print(f"median classification of a bash -lc script over {ROUNDS} runs: {median_us:.1f} µs")


if __name__ == "__main__":
    main()
