"""The rollout's `turn_context` line as 0.169 writes it (tests/fixtures/turn_context_0169.json,
recorded by tests/compat/turn_context_cases.py), for the same flags, and 0.169 resuming it.

Not compared: `comp_hash` and `multi_agent_version` (0.169's model catalogue; we do not
write them) and `summary` (0.169 writes "none" whatever it sends; ours says what we send)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.compat.conftest import Cli, rollout_of, rollout_records, thread_id, user_texts
from tests.compat.turn_context_cases import (
    CASES,
    FIXTURE,
    NOT_WRITTEN,
    flags_for,
    normalized,
)
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

SEEN: dict[str, dict[str, Any]] = json.loads(FIXTURE.read_text("utf-8"))


def _comparable(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k not in (*NOT_WRITTEN, "summary")}


def _turn_context(home: Path, session_id: str) -> dict[str, Any]:
    [payload] = [
        r["payload"]
        for r in rollout_records(rollout_of(home, session_id))
        if r["type"] == "turn_context"
    ]
    return payload


def _run(
    cli: Cli, server: ModelServer, case: str, project: Path, extra: Path
) -> tuple[str, dict[str, Any]]:
    """The session id and normalized `turn_context` of `exec` with the case's flags."""
    server.add(turn(message("ok")))
    done = cli.exec(server, "--json", *flags_for(case, extra), "hi", cwd=project)
    assert done.returncode == 0, done.stderr
    session = thread_id(done.stdout)
    return session, normalized(_turn_context(cli.home, session), project, extra)


@pytest.mark.parametrize("case", list(CASES))
def test_turn_context_written_as_0169_writes_it(
    case: str, ours: Cli, model_server: ModelServer, project: Path, tmp_path: Path
) -> None:
    extra = tmp_path / "extra"
    extra.mkdir()
    _, payload = _run(ours, model_server, case, project, extra)
    assert list(_comparable(payload)) == list(_comparable(SEEN[case])), "keys, in 0.169's order"
    assert _comparable(payload) == _comparable(SEEN[case])


def test_turn_context_side_by_side_and_resumed_by_0169(
    ours: Cli, rust: Cli, model_server: ModelServer, project: Path, tmp_path: Path
) -> None:
    extra = tmp_path / "extra"
    extra.mkdir()
    case = "workspace-write-roots"
    _, theirs = _run(rust, model_server, case, project, extra)
    ours_id, mine = _run(ours, model_server, case, project, extra)
    assert _comparable(mine) == _comparable(theirs)
    assert _comparable(theirs) == _comparable(SEEN[case]), "the fixture is still 0.169's"
    # 0.169 resumes the session we wrote in its form.
    model_server.add(turn(message("rust answer")))
    again = rust.exec(model_server, "--json", "resume", ours_id, "rust question", cwd=project)
    assert again.returncode == 0, again.stderr
    assert thread_id(again.stdout) == ours_id
    texts = user_texts(model_server.bodies[-1])
    assert texts.index("hi") < texts.index("rust question")
