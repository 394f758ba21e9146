"""Shared fixtures: every test gets a temporary CODEX_HOME and never sees the real ~/.codex."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

# A suite started as a background job of a non-interactive shell (`.ci/run &`, nohup) has
# SIGINT ignored, and every codex it spawns inherits that, as Unix intends for background
# jobs; the tests of Ctrl+C need the default disposition to pass on.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REPO_ROOT = Path(__file__).resolve().parents[1]
# The shared data beside the repository; CODEX_CONFORMANCE_DIR points elsewhere (tests of this).
CONFORMANCE_ROOT = Path(
    os.environ.get("CODEX_CONFORMANCE_DIR") or REPO_ROOT / ".." / "shared" / "conformance"
).resolve()
CONFORMANCE_MARK = "conformance"


def in_ci() -> bool:
    """Whether this run is CI (`.ci/run` exports CI=true), where nothing may be skipped."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_conformance(kind: str) -> Path:
    """The shared conformance data of `kind` (e.g. `apply_patch`): skip without it, fail in CI."""
    folder = CONFORMANCE_ROOT / kind
    if folder.is_dir():
        return folder
    reason = f"conformance data not found at {folder}"
    if in_ci():
        pytest.fail(f"{reason}; CI must run the conformance cases, not skip them", pytrace=False)
    pytest.skip(reason)


def pytest_configure(config: pytest.Config) -> None:
    """Register the marker counted in the summary; compile the bytecode once per run."""
    config.addinivalue_line(
        "markers", f"{CONFORMANCE_MARK}: one case of the shared conformance data (counted)"
    )
    if not hasattr(config, "workerinput"):  # the xdist controller or a plain run, not a worker
        compile_bytecode()
        config.stash[_WARM_UP] = warm_start_up_caches()


NO_WARM_UP_VAR = "CODEX_TESTS_NO_WARM_UP"
_WARM_UP = pytest.StashKey["tuple[list[subprocess.Popen[bytes]], Path] | None"]()

WARM_UP_PROGRAM = (
    "from codex_core.compile_cache import install; install(kind='tui'); "
    "import codex_tui.cli.main, codex_tui.exec.run, codex_tui.app.codex_app, codex_core.session"
)
"""What the TUI's process loads: CLI, the TUI and the session (its own table, "tui")."""
WARM_UP_OTHER_COMMANDS = (
    "from codex_core.compile_cache import install; install(kind='main'); "
    "import codex_tui.cli.main, codex_core.config, codex_core.frontend.sessions"
)
"""What the other subcommands (login, mcp, doctor, …) share: table "main"."""


def warm_start_up_caches() -> tuple[list[subprocess.Popen[bytes]], Path] | None:
    """Fill codex's start-up caches once, in the background, as a first run of an installed
    codex does.

    The console script keeps what it compiles as it loads (dataclass methods, patterns,
    annotations: codex_core/compile_cache.py) and the code of the modules it loads
    (codex_core/module_bundle.py, per module search path) in files beside the bytecode,
    written at exit unless bytecode writing is off: under PYTHONDONTWRITEBYTECODE (CI's
    environment) every `codex` the tests spawn compiled and searched them again (~0.1-0.15 s
    CPU a start). Three processes write them here: a `codex exec` through the real console
    script against a closed port on 127.0.0.1 (its modules, on its search path), and two
    interpreters that fill the TUI's table and the other commands' (the compile cache is not
    tied to a path).
    Nothing is written where it cannot be. A pytest run started by a test (NO_WARM_UP_VAR
    set) spawns no codex: it skips this.
    """
    if os.environ.get(NO_WARM_UP_VAR):
        return None
    scratch = Path(tempfile.mkdtemp(prefix="codex-tests-warm-up-"))
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "PYTHONDONTWRITEBYTECODE" and not k.startswith(("OPENAI_", "CODEX_"))
    }
    exec_env = {**env, "CODEX_HOME": str(scratch), "HOME": str(scratch), "OPENAI_API_KEY": "sk-x"}
    provider = '{name="w", base_url="http://127.0.0.1:9/v1", wire_api="responses"}'
    exec_run = [
        str(Path(sys.executable).parent / "codex"),
        "exec",
        "--skip-git-repo-check",
        "-C",
        str(scratch),
        "-c",
        f"model_providers.w={provider}",
        "-c",
        'model_provider="w"',
        "-c",
        "model_providers.w.request_max_retries=0",
        "-c",
        "model_providers.w.stream_max_retries=0",
        "warm up",
    ]
    started: list[subprocess.Popen[bytes]] = []
    for argv, argv_env in (
        (exec_run, exec_env),
        ([sys.executable, "-c", WARM_UP_PROGRAM], env),
        ([sys.executable, "-c", WARM_UP_OTHER_COMMANDS], env),
    ):
        try:
            started.append(
                subprocess.Popen(
                    argv,
                    cwd=scratch,
                    env=argv_env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        except OSError:
            continue  # no console script: the tests that need one skip
    return started, scratch


def pytest_unconfigure(config: pytest.Config) -> None:
    """Reap the start-up warm-up (it ends within seconds of the start) and its scratch dir."""
    import shutil

    warm_up = config.stash.get(_WARM_UP, None)
    if warm_up is None:
        return
    started, scratch = warm_up
    for proc in started:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
    shutil.rmtree(scratch, ignore_errors=True)


def compile_bytecode() -> None:
    """Write the bytecode of the repository's packages where it is missing or stale.

    An editable install ships none, and under PYTHONDONTWRITEBYTECODE (set in CI's
    environment) Python never caches it, so every `codex` the tests spawn compiled the
    ~100-250 modules it imports from source: ~25% of the CPU of a spawning test. An
    installed codex runs from the bytecode pip wrote; the tests now do too. Unwritable
    folders are left alone (the modules compile in memory, as before).
    """
    import compileall

    for package in ("codex_core", "codex_tui", "sandbox_helper", "tests"):
        compileall.compile_dir(str(REPO_ROOT / package), quiet=2)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    """Let pytest keep the test modules it rewrites (its own `__pycache__` files) while it
    collects them.

    Under PYTHONDONTWRITEBYTECODE (CI's environment) pytest reads its cached rewrites but never
    writes them, so each xdist worker parsed and rewrote the asserts of all ~220 test modules
    at every run: about a third of a worker's collection CPU. The cache files are written
    atomically and checked against the source's mtime and size, as in any plain pytest run.
    Only collection is affected: the tests' own processes keep the environment they inherit.
    """
    previous = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = previous


def pytest_collection_finish(session: pytest.Session) -> None:
    """Keep the garbage collector to what the tests allocate.

    After collection a worker holds every test module, Textual, pydantic's schemas and the
    packages: each full collection walked all of it again, and the young generation filled
    every 700 allocations (Textual makes many). Freezing what collection built and a young
    generation of 10,000 cut the collector's CPU in the TUI tests from ~5.5 s to ~1.9 s of
    ~27 s (test_snapshots + test_pilot). Only this process: the codex it spawns keeps its own.
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say how many shared conformance cases ran, so a silent skip cannot pass unnoticed."""
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for outcome in counts:
        for report in terminalreporter.stats.get(outcome, []):
            if CONFORMANCE_MARK not in getattr(report, "keywords", {}):
                continue
            if outcome == "passed" and report.when != "call":
                continue  # setup and teardown of a passing case pass too
            counts[outcome] += 1
    if any(counts.values()):
        ran = counts["passed"] + counts["failed"]
        terminalreporter.write_line(
            f"conformance: {ran} cases ran ({counts['passed']} passed, {counts['failed']} failed), "
            f"{counts['skipped']} skipped"
        )
    skipped = _skip_reasons(terminalreporter.stats.get("skipped", []))
    if skipped:
        total = sum(skipped.values())
        reasons = "; ".join(f"{reason} ({n})" for reason, n in skipped.most_common())
        terminalreporter.write_line(
            f"skipped {total}: {reasons} — README, 'Running the tests', says how to get each"
        )


def _skip_reasons(reports: list[pytest.TestReport]) -> Counter[str]:
    """Skipped tests counted by the first clause of their reason."""
    reasons: Counter[str] = Counter()
    for report in reports:
        longrepr = report.longrepr
        text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        text = text.removeprefix("Skipped: ")
        reasons[re.split(r"[:;]", text, maxsplit=1)[0].strip()] += 1
    return reasons


@pytest.fixture(autouse=True)
def codex_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """A private CODEX_HOME (and HOME) for each test; API keys from the real environment removed.

    Both are made in one folder of the run's temp dir by `tempfile.mkdtemp`, not by
    `tmp_path_factory.mktemp`: that one numbers a name by listing every entry of the temp dir,
    which grows by three a test, so an xdist worker's ~1,100 tests spent ~10 s listing it.
    """
    homes = tmp_path_factory.getbasetemp() / "homes"
    homes.mkdir(exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="codex_home", dir=homes))
    fake_user_home = Path(tempfile.mkdtemp(prefix="home", dir=homes))
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.setenv("HOME", str(fake_user_home))
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_OSS_BASE_URL", "CODEX_OSS_PORT"):
        monkeypatch.delenv(var, raising=False)
    yield home


@pytest.fixture(autouse=True)
def _no_daemon_left(request: pytest.FixtureRequest, codex_home: Path) -> Iterator[None]:
    """Stop any app-server daemon a test started under its CODEX_HOME (`codex app-server
    daemon start`, `codex queue --resume`, the TUI): none may outlive its test."""
    yield
    homes = {codex_home}
    if os.environ.get("CODEX_HOME"):
        homes.add(Path(os.environ["CODEX_HOME"]))
    tmp = getattr(request.node, "funcargs", {}).get("tmp_path")
    if tmp is not None:
        homes.update(p.parent for p in tmp.glob("*/app-server-control"))
        homes.update(p.parent for p in tmp.glob("*/*/app-server-control"))
    for home in homes:
        if (home / "app-server-control").is_dir():
            stop_daemons(home)


def stop_daemons(codex_home: Path) -> None:
    """Stop the daemon recorded under `codex_home` (SIGTERM twice, then SIGKILL)."""
    from codex_core.servers.app_server.daemon import DaemonError, stop_recorded

    try:
        stop_recorded(codex_home)
    except DaemonError as err:
        pytest.fail(str(err), pytrace=False)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Last sweep: no managed daemon whose CODEX_HOME lies under this run's temp dirs."""
    import contextlib

    base = str(session.config._tmp_path_factory.getbasetemp())  # type: ignore[attr-defined]
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        with contextlib.suppress(OSError):
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            if b"--managed-daemon" not in cmdline:
                continue
            environ = Path(f"/proc/{name}/environ").read_bytes().split(b"\0")
            home = next((e[11:] for e in environ if e.startswith(b"CODEX_HOME=")), b"")
            if home.decode(errors="replace").startswith(base):
                os.kill(int(name), signal.SIGKILL)


@pytest.fixture
def codex_bin() -> Path:
    """The installed `codex` console script of this virtualenv."""
    path = Path(sys.executable).parent / "codex"
    if not path.exists():
        pytest.skip("the codex console script is not installed in this environment")
    return path


from tests.support.fixtures import mcp_http_server, model_server  # noqa: E402,F401  (shared)
