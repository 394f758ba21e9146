"""Files holding user data are 0600 in 0700 folders, created that way (never chmod'ed after)."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from codex_core.history import append_history
from codex_core.private_files import private_mkdir, touch_private
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def loose_umask() -> Iterator[None]:
    """The common 022 umask, under which a plain open() or mkdir() gives 0644 / 0755."""
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield
    finally:
        for handler in root.handlers:
            if handler not in handlers:
                handler.close()
        root.handlers[:] = handlers
        root.setLevel(level)


def _run(codex_bin: Path, args: list[str], home: Path, cwd: Path, stdin: str | None = None) -> None:
    """Run the console script with `home` as the default CODEX_HOME (~/.codex)."""
    env = {**os.environ, "HOME": str(home.parent), "OPENAI_API_KEY": "sk-test"}
    env.pop("CODEX_HOME")  # the default ~/.codex, which codex creates when it is missing
    done = subprocess.run(
        [str(codex_bin), *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.e2e
@pytest.mark.usefixtures("loose_umask", "restore_logging")
def test_file_modes_of_everything_a_real_run_creates(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    user_home = tmp_path / "user"
    user_home.mkdir()
    home = user_home / ".codex"  # does not exist yet
    work = tmp_path / "work"
    work.mkdir()
    model_server.add(turn(message("done")))
    _run(codex_bin, ["exec", "--skip-git-repo-check", *model_server.cli_flags(), "hi"], home, work)
    _run(codex_bin, ["sessions", "list", "--all"], home, work)
    _run(codex_bin, ["login"], home, work, stdin="sk-file-modes-test\n")
    append_history(home, "00000000-0000-4000-8000-000000000001", "a prompt")
    from codex_tui.cli.tui import _log_to_file

    _log_to_file(SimpleNamespace(codex_home=home))  # type: ignore[arg-type]
    logging.getLogger("codex_core").info("a log line")
    _run(codex_bin, ["sessions", "archive", _only_session_id(home)], home, work)

    files = {
        "sessions_catalog.sqlite": home / "sessions_catalog.sqlite",
        "auth.json": home / "auth.json",
        "history.jsonl": home / "history.jsonl",
        "log/codex-tui.log": home / "log" / "codex-tui.log",
        **{
            f"archived_sessions/{p.name}": p
            for p in (home / "archived_sessions").glob("rollout-*.jsonl")
        },
    }
    assert len(files) == 5
    assert {name: oct(mode(path)) for name, path in files.items()} == {
        name: oct(0o600) for name in files
    }
    folders = [home, home / "log", home / "archived_sessions", home / "sessions"]
    folders += [p for p in (home / "sessions").rglob("*") if p.is_dir()]
    assert len(folders) == 7  # sessions/YYYY/MM/DD
    assert {str(f): oct(mode(f)) for f in folders} == {str(f): oct(0o700) for f in folders}


def _only_session_id(home: Path) -> str:
    (path,) = (home / "sessions").rglob("rollout-*.jsonl")
    assert oct(mode(path)) == oct(0o600)
    return path.stem[-36:]


@pytest.mark.usefixtures("loose_umask")
def test_file_modes_existing_folders_and_files_keep_their_mode(tmp_path: Path) -> None:
    strict = tmp_path / "strict"
    strict.mkdir(mode=0o500)
    private_mkdir(strict)
    assert mode(strict) == 0o500
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o750)
    private_mkdir(shared / "a" / "b")
    assert (mode(shared), mode(shared / "a"), mode(shared / "a" / "b")) == (0o750, 0o700, 0o700)
    existing = tmp_path / "existing.log"
    existing.write_text("kept\n")
    existing.chmod(0o640)
    touch_private(existing)
    assert mode(existing) == 0o640 and existing.read_text() == "kept\n"  # never chmod'ed
    fresh = tmp_path / "fresh.log"
    touch_private(fresh)
    assert mode(fresh) == 0o600
