"""Benchmark: apply_patch on a large file, and start-up of the `apply_patch` console script.

Run with `.venv/bin/python tests/bench/apply_patch.py`; prints timings, asserts nothing.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from codex_core.apply_patch import apply_patch

LINES = 20_000
CHUNKS = 200


def _big_patch(lines: list[str]) -> str:
    body = ["*** Begin Patch", "*** Update File: big.py"]
    step = len(lines) // CHUNKS
    for n in range(CHUNKS):
        at = n * step + step // 2
        body += ["@@", f" {lines[at - 1]}", f"-{lines[at]}", f"+{lines[at]}  # edited"]
    body.append("*** End Patch")
    return "\n".join(body)


def main() -> None:
    """Print the timings."""
    lines = [f"value_{i} = compute({i}, '{i % 7}')" for i in range(LINES)]
    patch = _big_patch(lines)
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        (cwd / "big.py").write_text("\n".join(lines) + "\n")
        started = time.perf_counter()
        apply_patch(patch, cwd)
        elapsed = time.perf_counter() - started
        print(f"apply {CHUNKS} chunks to {LINES} lines: {elapsed * 1000:.1f} ms")

        fuzzy = patch.replace("-value_", "-  value_")  # forces the whitespace-blind levels
        (cwd / "big.py").write_text("\n".join(lines) + "\n")
        started = time.perf_counter()
        apply_patch(fuzzy, cwd)
        elapsed = time.perf_counter() - started
        print(f"same with whitespace-fuzzy matches: {elapsed * 1000:.1f} ms")

        script = Path(sys.executable).parent / "codex"
        if script.exists():
            link = cwd / "apply_patch"
            link.symlink_to(script)
            small = "*** Begin Patch\n*** Add File: x.txt\n+x\n*** End Patch"
            runs = []
            for _ in range(10):
                started = time.perf_counter()
                subprocess.run([str(link), small], cwd=cwd, capture_output=True, check=True)
                runs.append(time.perf_counter() - started)
            print(f"console script add-file run: best {min(runs) * 1000:.1f} ms of 10")


if __name__ == "__main__":
    main()
