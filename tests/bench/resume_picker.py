"""Bench (issue 24): `codex resume` → the session list on screen, ours beside codex-rust 0.169.

CODEX_HOME holds N recorded sessions (N = 50 and 500 by default): copies of a 0.169 rollout
from tests/fixtures/rollouts_0169 (recorded by codex-rust), each with its own id, start time,
first message ("bench row 0000" is the newest) and modification time, its `source` made
`cli` (0.169's picker lists interactive sessions only; the fixture was recorded by `exec`)
and its `cwd` the bench's project directory, so both tools list all of them for "this
directory". Each program gets its own copy of the home.

A run spawns `codex resume` in a 110×36 pty (pyte answers the terminal's queries) and stops
the clock when the newest session's message is on the screen; the last column is when the
app itself drew it (ours paints the first page before Textual loads, codex_tui/cli/
picker_frame.py, and Textual draws it again: the picker answers keys from then on). The first run on a home is
cold (ours fills its listing catalog, codex-rust backfills state_5.sqlite) and is printed
apart; the warm figures are the medians of the later runs, interleaved (ours, rust; rust,
ours; …); the last column is the median of the per-run ratios ours ÷ rust.

Run: .venv/bin/python tests/bench/resume_picker.py [--runs N] [--sessions 50,500] [--rust PATH]
[--also NAME=COMMAND …]
"""

from __future__ import annotations

import compileall
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.bench.against_rust import parser_with_runs, spread  # noqa: E402
from tests.bench.tui_memory import stop_detached, tree, wait_gone  # noqa: E402

OURS = str(Path(sys.executable).parent / "codex")
FIXTURE = (
    REPO
    / "tests/fixtures/rollouts_0169"
    / "rollout-2026-11-24T10-45-56-01a20d29-8c84-71a3-ab5e-739e215cebaa.jsonl"
)
FIXTURE_ID = "01a20d29-8c84-71a3-ab5e-739e215cebaa"
FIXTURE_CWD = "/root/rh-proj"
FIXTURE_MESSAGE = "say hello"
FLAGS = [
    "-a",
    "never",
    "-s",
    "read-only",
    "-c",
    'model_providers.bench={name="bench", base_url="http://127.0.0.1:9/v1", '
    'env_key="OPENAI_API_KEY", wire_api="responses"}',
    "-c",
    'model_provider="bench"',
    "-c",
    'model="gpt-5.1-codex"',
]
"""No request is made: the provider only keeps codex-rust from asking to log in."""
TIMEOUT_S = 60.0
FRAME_START = b"\x1b[?1049h\x1b[?25l\x1b[0;48;5;233m\x1b[2J"
FRAME_END = b"\x1b[0m"
"""How codex_tui/cli/picker_frame.py's frame starts and ends."""
META_TIME = re.compile(r'("session_meta","payload":\{.*?"timestamp":")[^"]+')
"""The session's start time in its first line (the fixture's payload has no nested object
before it)."""


def row_text(index: int) -> str:
    return f"bench row {index:04d}"


def write_sessions(home: Path, project: Path, count: int, step: float = 60) -> None:
    """`count` sessions from the fixture, the newest (row 0) `step` s ago, one every `step`
    seconds (each last updated half a step after it started)."""
    template = FIXTURE.read_text(encoding="utf-8")
    template = template.replace(f'"cwd":"{FIXTURE_CWD}"', f'"cwd":"{project}"')
    template = template.replace(FIXTURE_CWD, str(project))
    template = template.replace('"source":"exec"', '"source":"cli"')
    now = time.time()
    for index in range(count):
        started = now - step * (index + 1)
        stamp = time.gmtime(started)
        session_id = str(uuid.UUID(int=uuid.uuid4().int))
        body = template.replace(FIXTURE_ID, session_id)
        body = body.replace(FIXTURE_MESSAGE, row_text(index))
        meta_time = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", stamp)
        body = META_TIME.sub(rf"\g<1>{meta_time}", body, count=1)
        folder = home / "sessions" / time.strftime("%Y/%m/%d", stamp)
        folder.mkdir(parents=True, exist_ok=True)
        name = f"rollout-{time.strftime('%Y-%m-%dT%H-%M-%S', stamp)}-{session_id}.jsonl"
        path = folder / name
        path.write_text(body, encoding="utf-8")
        os.utime(path, (started + step / 2, started + step / 2))


def picker_run(binary: str, home: Path, project: Path) -> tuple[float, float]:
    """ms from spawn until the newest session's message is on the screen, and until the
    app itself has drawn it (ours: Textual, after `picker_frame`'s frame; otherwise the
    same moment)."""
    import pexpect
    import pyte

    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-bench"}
    env["TERM"] = "xterm-256color"
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    wanted = row_text(0)
    start = time.perf_counter()
    child = pexpect.spawn(
        binary, ["resume", *FLAGS], cwd=str(project), env=env, dimensions=(36, 110), encoding=None
    )

    class Screen(pyte.Screen):
        def write_process_input(self, data: str) -> None:
            child.send(data.encode())  # answers the terminal's queries (cursor position, …)

    screen = Screen(110, 36)
    stream = pyte.ByteStream(screen)
    raw, shown = b"", 0.0
    try:
        while True:
            if time.perf_counter() - start > TIMEOUT_S:
                raise SystemExit(f"{binary}: no session list:\n" + "\n".join(screen.display))
            try:
                chunk = child.read_nonblocking(1 << 20, timeout=0.005)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                raise SystemExit(f"{binary} exited:\n" + "\n".join(screen.display)) from None
            stream.feed(chunk)
            raw += chunk
            now = (time.perf_counter() - start) * 1000
            if not shown and any(wanted in line for line in screen.display):
                shown = now
            if shown and not raw.startswith(FRAME_START):
                return shown, shown  # one paint: the app's
            if shown and FRAME_END in raw:
                if wanted.encode() in raw[raw.index(FRAME_END) :]:
                    return shown, now  # Textual has drawn the row over the frame
    finally:
        leftovers = tree(child.pid)
        child.terminate(force=True)
        stop_detached(str(home))
        wait_gone(leftovers)  # an app-server child ends once loaded: not in the next run


def main() -> int:
    parser = parser_with_runs(7, __doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sessions", default="50,500", help="comma-separated session counts")
    parser.add_argument("--ours-only", action="store_true")
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="another program to time in the same rounds (e.g. a checkout of an older commit)",
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.sessions.split(",") if n]
    binaries = {"ours": OURS}
    for extra in args.also:
        name, _, command = extra.partition("=")
        if not command:
            parser.error(f"--also wants NAME=COMMAND, not {extra!r}")
        binaries[name] = command
    if args.rust and not args.ours_only:
        binaries["rust"] = args.rust
    elif not args.ours_only:
        print("codex-rust not found (set CODEX_RUST or put it on PATH): ours only")
    compileall.compile_dir(str(REPO / "codex_core"), quiet=1)
    compileall.compile_dir(str(REPO / "codex_tui"), quiet=1)
    cold: dict[tuple[int, str], float] = {}
    warm: dict[tuple[int, str], list[float]] = {}
    app_warm: dict[tuple[int, str], list[float]] = {}
    base = Path(tempfile.mkdtemp(prefix="codex-picker-", dir=Path.home()))
    try:
        project = base / "project"
        project.mkdir()
        for count in counts:
            for name in binaries:
                write_sessions(base / f"home-{name}-{count}", project, count)
            for index in range(args.runs + 1):  # run 0 is cold
                order = list(binaries.items())
                if index % 2:
                    order.reverse()
                for name, binary in order:
                    elapsed, by_app = picker_run(binary, base / f"home-{name}-{count}", project)
                    if index:
                        warm.setdefault((count, name), []).append(elapsed)
                        app_warm.setdefault((count, name), []).append(by_app)
                    else:
                        cold[(count, name)] = elapsed
    finally:
        for path in base.glob("home-*"):
            stop_detached(str(path))
        shutil.rmtree(base, ignore_errors=True)
    print(f"`codex resume` → newest session on screen, ms; warm: median (min–max) of {args.runs}")
    header = f"{'':28}{'cold':>8}{'warm':>22}" + (f"{'÷ rust':>10}" if "rust" in binaries else "")
    print(header + f"{'drawn by the app':>24}")
    for count in counts:
        for name in binaries:
            times = warm[(count, name)]
            line = f"{count:5} sessions  {name:15}{cold[(count, name)]:8.0f}{spread(times):>22}"
            if "rust" in binaries:
                if name != "rust":
                    pairs = zip(times, warm[(count, "rust")], strict=True)
                    line += f"{statistics.median(o / r for o, r in pairs):9.2f}×"
                else:
                    line += " " * 10
            print(line + f"{spread(app_warm[(count, name)]):>24}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
