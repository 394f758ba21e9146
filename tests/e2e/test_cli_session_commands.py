"""`codex archive|unarchive|delete|fork` and `codex exec fork` through the real console script,
compared with what the Codex CLI 0.169 printed for the same steps (tests/fixtures/cli_0169).

`python -m tests.e2e.test_cli_session_commands record` reruns the scenario with `codex-rust`
and rewrites the fixture.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pytest

from tests.e2e.test_tui_session import spawn
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e

FIXTURES = Path(__file__).parent.parent / "fixtures"
RECORDED = FIXTURES / "cli_0169" / "session_commands.json"
MISSING = "01a21b25-f112-7d10-89fd-502feb8b2c9e"

SCENARIO: list[list[str]] = [
    ["archive", "<ID>"],
    ["archive", "<ID>"],
    ["archive", "nosuchname"],
    ["unarchive", "<ID>"],
    ["unarchive", "<ID>"],
    ["delete", "<ID>"],
    ["delete", "--force", MISSING],
    ["delete", "--force", "<ID>"],
    ["archive", "<ID>"],
]
"""Steps run one after the other on one recorded session; `<ID>` is its id."""


def run(binary: str, *args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """`binary ARGS` with stdin not a terminal."""
    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-test"}
    env["RUST_BACKTRACE"] = "0"
    return subprocess.run(
        [binary, *args],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def outcome(done: subprocess.CompletedProcess[str], session_id: str) -> dict[str, Any]:
    """Exit code, stdout and the first stderr line, with the session id as `<ID>`."""
    first_error = next(iter(done.stderr.strip().splitlines()), "")
    return {
        "exit": done.returncode,
        "stdout": done.stdout.replace(session_id, "<ID>"),
        "stderr": first_error.replace(session_id, "<ID>"),
    }


def run_scenario(binary: str, home: Path, cwd: Path, session_id: str) -> list[dict[str, Any]]:
    """Each step of SCENARIO with its outcome."""
    results = []
    for step in SCENARIO:
        args = [session_id if word == "<ID>" else word for word in step]
        results.append(
            {"args": step, **outcome(run(binary, *args, cwd=cwd, home=home), session_id)}
        )
    return results


def provider_config(server: ModelServer) -> str:
    """A config.toml selecting the scripted server (0.169's `exec fork` needs it in the file)."""
    return (
        f'model = "gpt-5.5"\nmodel_provider = "mock"\n[model_providers.mock]\nname = "mock"\n'
        f'base_url = "{server.base_url}"\nenv_key = "OPENAI_API_KEY"\nwire_api = "responses"\n'
    )


def exec_session(binary: str, home: Path, cwd: Path, prompt: str) -> str:
    """Run one `exec --json` turn; the new session's id."""
    done = run(binary, "exec", "--skip-git-repo-check", "--json", prompt, cwd=cwd, home=home)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout.splitlines()[0])["thread_id"])


def rollouts(home: Path, folder: str) -> list[str]:
    return sorted(path.name for path in (home / folder).rglob("rollout-*.jsonl"))


def meta(path: Path) -> dict[str, Any]:
    first: dict[str, Any] = json.loads(path.read_text().splitlines()[0])
    return dict(first["payload"])


def install_state_db(home: Path) -> Path:
    """An empty `state_5.sqlite` as 0.169 creates it."""
    path = home / "state_5.sqlite"
    db = sqlite3.connect(path)
    db.executescript((FIXTURES / "rollouts_0169" / "state_5_schema.sql").read_text("utf-8"))
    db.close()
    return path


def thread_row(db: Path, session_id: str) -> tuple[Any, ...] | None:
    con = sqlite3.connect(db)
    try:
        row = con.execute(
            "SELECT archived, archived_at IS NOT NULL, rollout_path FROM threads WHERE id = ?",
            (session_id,),
        ).fetchone()
    finally:
        con.close()
    return None if row is None else tuple(row)


def test_cli_archive_unarchive_delete_print_and_move_as_0169(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    model_server.add(turn(message("ok")))
    (codex_home / "config.toml").write_text(provider_config(model_server))
    db = install_state_db(codex_home)
    session = exec_session(str(codex_bin), codex_home, tmp_path, "hello")
    assert len(rollouts(codex_home, "sessions")) == 1
    assert thread_row(db, session) is not None

    results = run_scenario(str(codex_bin), codex_home, tmp_path, session)

    assert results == json.loads(RECORDED.read_text())["results"]
    assert rollouts(codex_home, "sessions") == rollouts(codex_home, "archived_sessions") == []
    assert thread_row(db, session) is None


def test_cli_archive_moves_the_rollout_and_its_state_row(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    model_server.add(turn(message("ok")))
    (codex_home / "config.toml").write_text(provider_config(model_server))
    db = install_state_db(codex_home)
    session = exec_session(str(codex_bin), codex_home, tmp_path, "hello")
    [name] = rollouts(codex_home, "sessions")

    done = run(str(codex_bin), "archive", session, cwd=tmp_path, home=codex_home)
    assert (done.returncode, done.stdout) == (0, f"Archived session {session}.\n")
    assert rollouts(codex_home, "archived_sessions") == [name]
    assert (codex_home / "archived_sessions" / name).is_file()
    assert thread_row(db, session) == (1, 1, str(codex_home / "archived_sessions" / name))

    # updated_at counts seconds: the row and the file are dated a minute back instead of
    # waiting for the clock to tick
    before = updated_at(db, session) - 60
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE threads SET updated_at = ? WHERE id = ?", (before, session))
    con.close()
    os.utime(codex_home / "archived_sessions" / name, (before, before))
    started = int(time.time())
    done = run(str(codex_bin), "unarchive", session, cwd=tmp_path, home=codex_home)
    assert done.returncode == 0, done.stderr
    [path] = (codex_home / "sessions").rglob(name)
    assert thread_row(db, session) == (0, 0, str(path))
    # as 0.169: unarchiving makes the thread recent (row and file time)
    assert updated_at(db, session) >= started > before
    assert int(path.stat().st_mtime) == updated_at(db, session)


def updated_at(db: Path, session_id: str) -> int:
    con = sqlite3.connect(db)
    try:
        (value,) = con.execute(
            "SELECT updated_at FROM threads WHERE id = ?", (session_id,)
        ).fetchone()
    finally:
        con.close()
    return int(value)


def test_cli_session_commands_take_thread_names(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    """Names from session_index.jsonl work wherever ids do (0.169 found none of them)."""
    model_server.add(turn(message("ok")), turn(message("forked answer")))
    (codex_home / "config.toml").write_text(provider_config(model_server))
    session = exec_session(str(codex_bin), codex_home, tmp_path, "hello")
    record = {"id": session, "thread_name": "my work", "updated_at": "2026-11-27T00:00:00Z"}
    (codex_home / "session_index.jsonl").write_text(json.dumps(record) + "\n")

    def codex(*args: str) -> subprocess.CompletedProcess[str]:
        return run(str(codex_bin), *args, cwd=tmp_path, home=codex_home)

    assert codex("archive", "my work").stdout == f"Archived session {session}.\n"
    assert codex("unarchive", "my work").stdout == f"Unarchived session my work ({session}).\n"
    forked = codex("exec", "--skip-git-repo-check", "--json", "fork", "my work", "go on")
    assert forked.returncode == 0, forked.stderr
    new_id = json.loads(forked.stdout.splitlines()[0])["thread_id"]
    assert new_id != session
    refused = codex("delete", "--force", "my work")
    assert refused.returncode == 1
    assert refused.stderr.startswith("Error: --force requires a session UUID")
    other = {"id": new_id, "thread_name": "the fork", "updated_at": "2026-11-27T00:00:01Z"}
    with (codex_home / "session_index.jsonl").open("a") as index:
        index.write(json.dumps(other) + "\n")
    assert codex("delete", "--force", session).returncode == 0
    # as 0.169: the deleted thread's names go with it, the others stay as they were
    assert (codex_home / "session_index.jsonl").read_text() == json.dumps(other) + "\n"


def test_cli_exec_fork_continues_a_copy_and_leaves_the_original(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    model_server.add(turn(message("first answer")), turn(message("forked answer")))
    (codex_home / "config.toml").write_text(provider_config(model_server))
    session = exec_session(str(codex_bin), codex_home, tmp_path, "first question")
    [original] = (codex_home / "sessions").rglob("rollout-*.jsonl")
    before = original.read_bytes()

    done = run(
        str(codex_bin),
        "exec",
        "--skip-git-repo-check",
        "fork",
        session,
        "second question",
        cwd=tmp_path,
        home=codex_home,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "forked answer"
    assert original.read_bytes() == before
    [copy] = [p for p in (codex_home / "sessions").rglob("rollout-*.jsonl") if p != original]
    copied = meta(copy)
    assert copied["forked_from_id"] == session
    assert copied["id"] == copied["session_id"] != session
    texts = [
        part["text"]
        for item in model_server.bodies[1]["input"]
        if item.get("type") == "message"
        for part in item["content"]
        if part.get("type") in ("input_text", "output_text")
    ]
    assert texts[-3:] == ["first question", "first answer", "second question"]
    missing = run(
        str(codex_bin),
        "exec",
        "--skip-git-repo-check",
        "fork",
        MISSING,
        "x",
        cwd=tmp_path,
        home=codex_home,
    )
    assert missing.returncode == 1 and len(missing.stderr.strip().splitlines()) == 1


def test_cli_delete_asks_on_a_terminal(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    model_server.add(turn(message("ok")))
    (codex_home / "config.toml").write_text(provider_config(model_server))
    session = exec_session(str(codex_bin), codex_home, tmp_path, "hello")
    for answer, expected in (("n", "Delete cancelled."), ("y", f"Deleted session {session}.")):
        child = pexpect.spawn(
            str(codex_bin), ["delete", session], cwd=str(tmp_path), encoding="utf-8", timeout=30
        )
        child.expect(re.escape("Continue? [y/N]: "))
        assert f"Permanently delete session {session}?" in (child.before or "")
        child.sendline(answer)
        child.expect(pexpect.EOF)
        child.close()
        assert expected in (child.before or "")
        assert child.exitstatus == 0
    assert rollouts(codex_home, "sessions") == []


def test_cli_fork_opens_the_tui_on_a_copy(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    model_server.add(turn(message("first answer")), turn(message("answer in the fork")))
    (codex_home / "config.toml").write_text(provider_config(model_server))
    session = exec_session(str(codex_bin), codex_home, tmp_path, "first question")

    flags = ["-a", "never", "-s", "read-only"]
    term = spawn(codex_bin, ["fork", *flags, session, "and now?"], tmp_path)
    term.wait_for(f"Thread forked from {session}")
    term.wait_for("first question")
    term.wait_for("answer in the fork")
    term.child.send("\x03")
    term.wait_for("again to quit")
    term.child.send("\x03")
    tail = term.rest()
    match = re.search(r"codex resume ([0-9a-f-]{36})", tail)
    assert match and match.group(1) != session, tail[-800:]
    assert len(list((codex_home / "sessions").rglob("rollout-*.jsonl"))) == 2


def record() -> None:
    """Run SCENARIO with codex-rust and write the fixture (needs `codex-rust` on PATH)."""
    import pwd
    import shutil
    import tempfile

    base = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "codex-compat"
    base.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="home-", dir=base))
    try:
        with ModelServer([turn(message("ok"))]) as server:
            (home / "config.toml").write_text(provider_config(server))
            session = exec_session("codex-rust", home, home, "hello")
            results = run_scenario("codex-rust", home, home, session)
        version = subprocess.run(["codex-rust", "--version"], capture_output=True, text=True)
        RECORDED.parent.mkdir(parents=True, exist_ok=True)
        RECORDED.write_text(
            json.dumps({"recorded_with": version.stdout.strip(), "results": results}, indent=1)
            + "\n"
        )
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__" and sys.argv[1:] == ["record"]:
    record()


def test_cli_fork_last_skips_exec_sessions(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    model_server.add(turn(message("one")), turn(message("two")))
    (codex_home / "config.toml").write_text(provider_config(model_server))
    interactive = exec_session(str(codex_bin), codex_home, tmp_path, "typed in the TUI")
    [path] = (codex_home / "sessions").rglob(f"rollout-*{interactive}.jsonl")
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    first["payload"]["source"] = "cli"  # as the TUI records its sessions
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    exec_session(str(codex_bin), codex_home, tmp_path, "run by exec, newer")

    term = spawn(codex_bin, ["fork", "--last", "-a", "never", "-s", "read-only"], tmp_path)
    term.wait_for(f"Thread forked from {interactive}")
    term.wait_for("typed in the TUI")
    term.child.send("\x03")
    term.wait_for("again to quit")
    term.child.send("\x03")
    term.rest()

    # without an id or --last: a picker, and the chosen session is forked
    term = spawn(codex_bin, ["fork", "-a", "never", "-s", "read-only"], tmp_path)
    term.wait_for("Fork a previous session")
    term.wait_for("typed in the TUI")
    term.child.send("\r")
    term.wait_for("Thread forked from")
    term.child.send("\x03")
    term.wait_for("again to quit")
    term.child.send("\x03")
    term.rest()
    assert len(list((codex_home / "sessions").rglob("rollout-*.jsonl"))) == 4
