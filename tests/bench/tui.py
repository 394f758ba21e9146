"""TUI benchmark: launch-to-composer time of the real `codex`, and CPU to render a long stream.

Run: `.venv/bin/python tests/bench/tui.py` (prints both numbers; goal: first paint under 1 s).
"""

from __future__ import annotations

import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

ANSI = re.compile(
    r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>PX^_\]][^\x1b\x07]*(?:\x07|\x1b\\)?"
)
READY = "Ask Codex to do anything"


def launch_to_composer(runs: int = 5) -> list[float]:
    """Seconds from spawning `codex` in a pty until the composer is painted."""
    import pexpect

    from tests.support.model_server import ModelServer

    codex = Path(sys.executable).parent / "codex"
    times: list[float] = []
    with ModelServer() as server, tempfile.TemporaryDirectory() as tmp:
        home, project = Path(tmp, "home"), Path(tmp, "project")
        home.mkdir()
        project.mkdir()
        args = [
            "-a",
            "on-request",
            "-s",
            "read-only",
            *server.cli_flags(),
        ]
        env = {
            **os.environ,
            "CODEX_HOME": str(home),
            "OPENAI_API_KEY": "sk-bench",
            "TERM": "xterm-256color",
        }
        for _ in range(runs):
            started = time.perf_counter()
            child = pexpect.spawn(
                str(codex), args, cwd=str(project), env=env, dimensions=(36, 110), encoding="utf-8"
            )
            screen = ""
            while READY not in screen:
                try:
                    screen += ANSI.sub("", child.read_nonblocking(65536, timeout=10))
                except pexpect.TIMEOUT as err:
                    raise SystemExit(f"codex never showed the composer:\n{screen[-1500:]}") from err
            times.append(time.perf_counter() - started)
            child.send("\x04")
            child.expect(pexpect.EOF, timeout=10)
    return times


async def stream_cpu(deltas: int = 20_000) -> tuple[float, float]:
    """CPU and wall seconds for the app to render an answer streamed as `deltas` pieces."""
    from codex_core.protocol import AgentMessageDeltaEvent, AgentMessageEvent, TaskStartedEvent
    from codex_tui.app.codex_app import CodexApp
    from codex_tui.app.widgets.cells.agent_cell import AgentCell
    from tests.tui.fake_core import FakeBoot, frozen_clock, options, settle

    words = [f"word{i}" + ("\n\n" if i % 40 == 39 else " ") for i in range(deltas)]
    boot = FakeBoot()
    app = CodexApp(boot, options(), clock=frozen_clock())
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        cpu, wall = time.process_time(), time.perf_counter()
        boot.core.emit(TaskStartedEvent())
        boot.core.emit(*[AgentMessageDeltaEvent(delta=word) for word in words])
        boot.core.emit(AgentMessageEvent(message="".join(words)))
        while not boot.core._queue.empty():
            await asyncio.sleep(0.01)
        await settle(pilot)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        cell = app.screen.query_one(AgentCell)
        assert cell.text == "".join(words)
    return cpu, wall


def main() -> None:
    """Print both measurements."""
    times = launch_to_composer()
    print(
        f"launch to interactive composer: median {statistics.median(times):.3f}s "
        f"(min {min(times):.3f}s, max {max(times):.3f}s, {len(times)} runs; goal < 1s)"
    )
    cpu, wall = asyncio.run(stream_cpu())
    print(f"render a 20,000-delta streamed answer: {cpu:.2f}s CPU, {wall:.2f}s wall")


if __name__ == "__main__":
    main()
