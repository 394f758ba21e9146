"""Corrupt, truncated, empty, binary and wrong-shaped rollouts beside good ones.

Listing (`list_sessions`, `codex sessions list`, `--last`) skips them with one warning line
naming the file; resume and fork by id refuse them in one line; nothing ever raises a
traceback, whatever the bytes (hypothesis).
"""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codex_core.rollout import (
    NotASessionError,
    find_session_path,
    list_sessions,
    read_rollout,
    reconstruct,
)
from codex_core.rollout.head import read_head
from codex_tui.cli import sessions
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

BAD_ID = "00000000-0000-4000-8000-00000000bad0"
DAY = "2025/10/01"


def _line(line_type: Any, payload: Any) -> bytes:
    record = {"timestamp": "2025-10-01T12:00:00.000Z", "type": line_type, "payload": payload}
    return json.dumps(record).encode() + b"\n"


def _meta(session_id: Any, cwd: str = "/work") -> bytes:
    return _line(
        "session_meta", {"id": session_id, "timestamp": "2025-10-01T10:00:00Z", "cwd": cwd}
    )


def _user(text: str) -> bytes:
    return _line("event_msg", {"type": "user_message", "message": text})


def write_rollout(home: Path, session_id: str, body: bytes, age: int = 0) -> Path:
    folder = home / "sessions" / DAY
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-2025-10-01T10-00-00-{session_id}.jsonl"
    path.write_bytes(body)
    stamp = 1_760_000_000 - age
    os.utime(path, (stamp, stamp))
    return path


def good_sessions(home: Path, cwd: str = "/work") -> list[str]:
    """Two good sessions, older than the bad file, so listing must look past it."""
    ids = [f"00000000-0000-4000-8000-00000000000{n}" for n in (1, 2)]
    for n, session_id in enumerate(ids, start=1):
        write_rollout(home, session_id, _meta(session_id, cwd) + _user(f"task {n}"), age=10 * n)
    return ids


GOOD_META = _meta(BAD_ID)
CORRUPT: dict[str, bytes] = {
    "garbage": b"<html>this is not json</html>\n",
    "truncated-meta": GOOD_META[: len(GOOD_META) // 2],
    "empty": b"",
    "blank-lines": b"\n\n   \n",
    "binary": bytes(range(256)) * 4,
    "nul-bytes": b"\0" * 100 + b"\n" + _user("hi"),
    "invalid-utf8": b'{"type":"session_meta","payload":{"id":"\xff\xfe"}}\n' + _user("hi"),
    "json-array": b"[1, 2, 3]\n" + _user("hi"),
    "json-number": b"42\n" + _user("hi"),
    "json-string": b'"session_meta"\n' + _user("hi"),
    "missing-type": json.dumps({"payload": {"id": BAD_ID}}).encode() + b"\n" + _user("hi"),
    "missing-payload": json.dumps({"type": "session_meta"}).encode() + b"\n" + _user("hi"),
    "payload-list": _line("session_meta", [BAD_ID]) + _user("hi"),
    "payload-string": _line("session_meta", BAD_ID) + _user("hi"),
    "type-number": _line(7, {"id": BAD_ID}) + _user("hi"),
    "type-list": _line([], {"id": BAD_ID}) + _user("hi"),
    "type-object": _line({"t": 1}, {"id": BAD_ID}) + _user("hi"),
    "deep-nesting": b'{"type":"session_meta","payload":' + b"[" * 100_000 + b"\n" + _user("hi"),
    "huge-integer": b'{"type":"session_meta","payload":{"id":' + b"9" * 10_000 + b"}}\n",
    "meta-id-number": _meta(12345) + _user("hi"),
    "meta-id-null": _meta(None) + _user("hi"),
    "meta-id-object": _meta({"uuid": BAD_ID}) + _user("hi"),
    "no-meta": _user("hi") + _user("again"),
    "huge-first-line": _line("session_meta", {"id": BAD_ID, "pad": "x" * (2 << 20)}) + _user("hi"),
}


@pytest.mark.parametrize("shape", sorted(CORRUPT))
def test_rollout_corrupt_listing_skips_with_one_warning(codex_home: Path, shape: str) -> None:
    good = good_sessions(codex_home)
    bad = write_rollout(codex_home, BAD_ID, CORRUPT[shape])
    page = list_sessions(codex_home)
    assert [item.id for item in page.items] == good
    assert [s.path for s in page.skipped] == [str(bad)]
    assert page.skipped[0].warning.startswith(f"skipping {bad}: this file is not a Codex session (")
    # A second listing (now from the catalog cache) still reports it.
    assert [s.path for s in list_sessions(codex_home).skipped] == [str(bad)]


@pytest.mark.parametrize("shape", sorted(CORRUPT))
def test_rollout_corrupt_resume_by_id_is_refused(codex_home: Path, shape: str) -> None:
    bad = write_rollout(codex_home, BAD_ID, CORRUPT[shape])
    with pytest.raises(NotASessionError) as refused:
        find_session_path(codex_home, BAD_ID)
    message = str(refused.value)
    assert message.startswith(f"{bad}: this file is not a Codex session (") and "\n" not in message
    assert find_session_path(codex_home, BAD_ID, check=False) == bad  # archive may move it


def test_rollout_corrupt_sessions_list_warns_once_per_file(
    codex_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good_sessions(codex_home)
    bad = write_rollout(codex_home, BAD_ID, CORRUPT["binary"])
    out = io.StringIO()
    assert sessions.main(["list", "--all", "--json"], out=out) == 0
    assert [json.loads(line)["preview"] for line in out.getvalue().splitlines()] == [
        "task 1",
        "task 2",
    ]
    warnings = capsys.readouterr().err.splitlines()
    assert warnings == [
        f"codex sessions: skipping {bad}: this file is not a Codex session "
        "(its first line is not a rollout record)"
    ]


def test_rollout_corrupt_fork_refused_but_archive_allowed(
    codex_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write_rollout(codex_home, BAD_ID, CORRUPT["garbage"])
    assert sessions.main(["fork", BAD_ID], out=io.StringIO()) == 1
    assert capsys.readouterr().err == (
        f"codex sessions fork: {bad}: this file is not a Codex session "
        "(its first line is not a rollout record)\n"
    )
    assert sessions.main(["archive", BAD_ID], out=io.StringIO()) == 0
    assert (codex_home / "archived_sessions" / bad.name).exists()


def test_rollout_corrupt_truncated_tail_is_still_a_session(codex_home: Path) -> None:
    body = _meta(BAD_ID) + _user("keep me") + _user("cut")[:20]
    path = write_rollout(codex_home, BAD_ID, body)
    assert [item.preview for item in list_sessions(codex_home).items] == ["keep me"]
    assert find_session_path(codex_home, BAD_ID) == path


# ------------------------------------------------------------------ fuzzing

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
_KEYS = st.sampled_from(
    ["id", "type", "cwd", "git", "timestamp", "role", "content", "message", "model_provider"]
)
_PAYLOAD = _JSON | st.dictionaries(
    _KEYS, _JSON | st.sampled_from(["message", "user", "user_message"])
)
_RECORD = st.fixed_dictionaries(
    {
        "type": st.sampled_from(
            [
                "session_meta",
                "response_item",
                "event_msg",
                "turn_context",
                "compacted",
                "world_state",
            ]
        )
        | _JSON,
        "payload": _PAYLOAD,
    },
    optional={"timestamp": _JSON},
)
_LINE = st.one_of(
    _RECORD.map(lambda r: json.dumps(r).encode()),
    _JSON.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=40),
    st.just(b'{"type":"session_meta","payload":{"id":"\\ud800","cwd":"\\udfff\\u001b[2J"}}'),
    st.just(b'{"type":"event_msg","payload":{"type":"user_message","message":"\\ud83d x"}}'),
)
_NAMES = st.sampled_from(
    ["rollout-2025-10-01T10-00-00-", "rollout-2025-13-45T99-61-61-", "rollout-0000-00-00T00-00-00-"]
)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(lines=st.lists(_LINE, max_size=6), name=_NAMES, separator=st.sampled_from([b"\n", b"\r\n"]))
def test_rollout_corrupt_fuzz_never_raises(
    codex_home: Path, lines: list[bytes], name: str, separator: bytes
) -> None:
    folder = codex_home / "sessions" / DAY
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    path = folder / f"{name}{BAD_ID}.jsonl"
    path.write_bytes(separator.join(lines))
    head = read_head(str(path))
    page = list_sessions(codex_home)
    assert len(page.items) + len(page.skipped) <= 1
    assert (head.problem is None) == (not page.skipped)
    reconstruct(read_rollout(path))
    try:
        find_session_path(codex_home, BAD_ID)
    except NotASessionError as err:
        assert head.problem is not None and "\n" not in str(err)
    out = io.StringIO()
    assert sessions.main(["list", "--all"], out=out) == 0
    out.getvalue().encode()  # printable: no lone surrogates reach the terminal
    assert "\x1b" not in out.getvalue()


# ------------------------------------------------------------------ end to end


@pytest.mark.e2e
def test_rollout_corrupt_exec_resume_by_id_says_not_a_session(
    codex_bin: Path, codex_home: Path, tmp_path: Path
) -> None:
    bad = write_rollout(codex_home, BAD_ID, CORRUPT["garbage"])
    done = subprocess.run(
        [str(codex_bin), "exec", "resume", "--skip-git-repo-check", BAD_ID, "go on"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
    )
    assert done.returncode != 0
    assert done.stderr == (
        f"codex: {bad}: this file is not a Codex session (its first line is not a rollout record)\n"
    )


@pytest.mark.e2e
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_rollout_corrupt_tui_resume_by_id_says_not_a_session(
    codex_bin: Path, codex_home: Path, tmp_path: Path
) -> None:
    bad = write_rollout(codex_home, BAD_ID, CORRUPT["empty"])
    primary, secondary = pty.openpty()
    try:
        child = subprocess.Popen(
            [str(codex_bin), "resume", BAD_ID],
            cwd=tmp_path,
            stdin=secondary,
            stdout=secondary,
            stderr=subprocess.PIPE,
            env={**os.environ, "OPENAI_API_KEY": "sk-test", "TERM": "xterm"},
        )
        _out, err = child.communicate(timeout=60)
    finally:
        os.close(secondary)
        os.close(primary)
    assert child.returncode != 0
    assert err.decode() == f"codex: {bad}: this file is not a Codex session (the file is empty)\n"


@pytest.mark.e2e
def test_rollout_corrupt_exec_resume_last_skips_it_and_names_it(
    codex_bin: Path, codex_home: Path, tmp_path: Path, model_server: ModelServer
) -> None:
    newest_good = good_sessions(codex_home, cwd=str(tmp_path))[0]
    bad = write_rollout(codex_home, BAD_ID, CORRUPT["json-array"])
    model_server.add(turn(message("resumed")))
    done = subprocess.run(
        [str(codex_bin), "exec", "resume", "--last", "--skip-git-repo-check"]
        + [*model_server.cli_flags(), "go on"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
    )
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "not a Codex session" in line]
    assert warnings == [
        f"codex: skipping {bad}: this file is not a Codex session "
        "(its first line is not a rollout record)"
    ]
    assert newest_good in json.dumps(model_server.requests[0].body)  # it resumed that one
