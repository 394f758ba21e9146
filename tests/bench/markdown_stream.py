"""Benchmark: the answer cell (`AgentCell`) beside Textual's own `MarkdownStream`, streaming
the same long answer in the same app.

Each streams a 20,000-delta answer with paragraphs, a code block and a table, delivered in
batches of 400 deltas (about what the TUI's 25 Hz pump hands over while a fast stream
arrives), pausing for the screen after each. Prints the CPU seconds and the slowest and
median per-batch time (delivering a batch and painting it), medians over the rounds.
Run: `.venv/bin/python tests/bench/markdown_stream.py [ROUNDS]`.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Markdown

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from codex_tui.app.widgets.cells.agent_cell import AgentCell  # noqa: E402

BATCH = 400


def deltas() -> list[str]:
    parts: list[str] = []
    for i in range(19_000):
        parts.append(f"w{i}" + ("\n\n" if i % 40 == 39 else " "))
    parts.append("\n\n```python\n")
    parts += [f"value_{i} = compute({i})\n" for i in range(400)]
    parts.append("```\n\n| step | time |\n|---|---|\n")
    parts += [f"| step {i} | {i} ms |\n" for i in range(598)]
    parts.append("\nThe end.")
    return parts


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="log")


async def run(kind: str) -> tuple[float, list[float]]:
    app = Host()
    pieces = deltas()
    async with app.run_test(size=(110, 36)) as pilot:
        log = app.query_one("#log", VerticalScroll)
        log.anchor()
        cell: Any
        if kind == "AgentCell":
            cell = AgentCell()
            await log.mount(cell)
        else:
            cell = Markdown()
            await log.mount(cell)
            stream = Markdown.get_stream(cell)
        await pilot.pause()
        cpu = time.process_time()
        batches: list[float] = []
        for start in range(0, len(pieces), BATCH):
            chunk = "".join(pieces[start : start + BATCH])
            began = time.perf_counter()
            if kind == "AgentCell":
                await cell.append(chunk)
            else:
                await stream.write(chunk)
            await pilot.pause()
            batches.append(time.perf_counter() - began)
        if kind != "AgentCell":
            await stream.stop()
        await pilot.pause()
        return time.process_time() - cpu, batches


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for kind in ("AgentCell", "MarkdownStream"):
        cpus, worst, typical = [], [], []
        for _ in range(rounds):
            cpu, batches = asyncio.run(run(kind))
            cpus.append(cpu)
            worst.append(max(batches))
            typical.append(statistics.median(batches))
        print(
            f"{kind:>14}: CPU median {statistics.median(cpus):.2f}s; per batch median "
            f"{statistics.median(typical) * 1000:.1f} ms, slowest {statistics.median(worst) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
