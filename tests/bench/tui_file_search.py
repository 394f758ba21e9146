"""Benchmark: `@` popup first results on a 100,000-file tree (goal ≤ 150 ms after the key).

Each round starts a fresh app (no cached index), types `@`, then one letter, and times the
letter → first file rows; then three more letters (incremental filtering). Both a plain
directory tree (walked) and the same tree as a git work tree (`git ls-files`) are measured.
Run: `.venv/bin/python tests/bench/tui_file_search.py [ROUNDS]` (prints medians).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

FILES = 100_000


def make_tree(root: Path) -> None:
    rng = random.Random(7)
    words = ["src", "lib", "core", "utils", "views", "models", "api", "tests", "docs", "ui"]
    dirs = [
        "/".join(rng.choice(words) for _ in range(rng.randint(1, 4))) + f"/d{i}"
        for i in range(2000)
    ]
    for d in dirs:
        (root / d).mkdir(parents=True, exist_ok=True)
    for i in range(FILES):
        name = "".join(rng.choices(string.ascii_lowercase, k=8)) + f"_{i}.py"
        (root / dirs[i % len(dirs)] / name).touch()


async def one_round(root: Path) -> tuple[float, float]:
    from codex_tui.app.codex_app import CodexApp
    from codex_tui.app.widgets.completion_popup import CompletionPopup
    from tests.tui.fake_core import FakeBoot, configured, frozen_clock, options, settle

    boot = FakeBoot(configured_event=configured(cwd=str(root)))
    app = CodexApp(boot, options(), clock=frozen_clock())
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        popup = app.screen.query_one(CompletionPopup)
        await pilot.press("@")
        started = time.perf_counter()
        await pilot.press("m")
        while not popup.values:
            await asyncio.sleep(0.001)
        first = time.perf_counter() - started
        started = time.perf_counter()
        for key in "ode":
            await pilot.press(key)
        rest = (time.perf_counter() - started) / 3
    return first, rest


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "tree"
        root.mkdir()
        made = time.perf_counter()
        make_tree(root)
        print(f"made {FILES:,} files in {time.perf_counter() - made:.1f}s")
        for label in ("plain tree", "git work tree"):
            if label == "git work tree":
                subprocess.run(["git", "init", "-q"], cwd=root, check=True)
                subprocess.run(["git", "add", "-A"], cwd=root, check=True)
            results = [asyncio.run(one_round(root)) for _ in range(rounds)]
            firsts = [r[0] * 1000 for r in results]
            rests = [r[1] * 1000 for r in results]
            print(
                f"{label:>14}: first results median {statistics.median(firsts):.0f} ms "
                f"(max {max(firsts):.0f}; goal ≤ 150), next keys median "
                f"{statistics.median(rests):.0f} ms per key"
            )


if __name__ == "__main__":
    main()
