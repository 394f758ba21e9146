"""`codex exec` output and the notify payload, side by side with codex-rust."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from tests.compat.conftest import Cli, jsonl
from tests.support.model_server import ModelServer
from tests.support.sse import custom_tool_call, message, turn, usage

PATCH = "*** Begin Patch\n*** Add File: added.txt\n+new line\n*** End Patch\n"


@pytest.mark.parametrize("binary", ["ours", "rust"])
def test_output_json_usage_and_file_change(
    binary: str, request: pytest.FixtureRequest, model_server: ModelServer, project: Path
) -> None:
    cli: Cli = request.getfixturevalue(binary)
    model_server.add(
        turn(custom_tool_call("apply_patch", PATCH, call_id="p1"), usage=usage(100, 5, cached=20)),
        turn(message("done"), usage=usage(120, 3, reasoning=2)),
    )
    done = cli.exec(model_server, "--json", "-s", "workspace-write", "add it", cwd=project)
    assert done.returncode == 0, done.stderr
    lines = jsonl(done.stdout)
    changes = [ln for ln in lines if ln.get("item", {}).get("type") == "file_change"]
    assert [(ln["type"], ln["item"]["status"]) for ln in changes] == [
        ("item.started", "in_progress"),
        ("item.completed", "completed"),
    ]
    assert changes[0]["item"]["id"] == changes[1]["item"]["id"]
    assert changes[1]["item"]["changes"] == [{"path": str(project / "added.txt"), "kind": "add"}]
    [completed] = [ln for ln in lines if ln["type"] == "turn.completed"]
    assert completed["usage"] == {
        "input_tokens": 220,
        "cached_input_tokens": 20,
        "cache_write_input_tokens": 0,
        "output_tokens": 8,
        "reasoning_output_tokens": 2,
    }


@pytest.mark.parametrize("binary", ["ours", "rust"])
def test_output_human_header_tokens_and_notify(
    binary: str,
    request: pytest.FixtureRequest,
    model_server: ModelServer,
    project: Path,
    tmp_path: Path,
) -> None:
    cli: Cli = request.getfixturevalue(binary)
    sink = tmp_path / f"notify-{binary}.json"
    script = f"import sys; open({str(sink)!r}, 'w').write(sys.argv[1])"
    (cli.home / "config.toml").write_text(
        f"notify = {json.dumps([sys.executable, '-c', script])}\n"
    )
    model_server.add(turn(message("the answer"), usage=usage(1234, 56, cached=200)))
    done = cli.exec(model_server, "-c", 'model_reasoning_effort="high"', "question", cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "the answer\n"
    err = done.stderr.splitlines()
    session = next(line.split(": ", 1)[1] for line in err if line.startswith("session id: "))
    for fact in (
        f"workdir: {project}",
        "model: gpt-5.5",
        "provider: mock",
        "approval: never",
        "sandbox: read-only",
        "reasoning effort: high",
    ):
        assert fact in err, fact
    # 0.169 prints the summary mode its model catalogue picks (none for gpt-5.5); ours prints
    # the configured one (auto), which is what it sends.
    assert any(line.startswith("reasoning summaries: ") for line in err)
    assert err[err.index("tokens used") + 1] == "1,090"  # input - cached + output
    for _ in range(100):
        if sink.exists() and sink.read_text():
            break
        time.sleep(0.05)
    payload = json.loads(sink.read_text())
    assert list(payload) == [
        "type",
        "thread-id",
        "turn-id",
        "cwd",
        "client",
        "input-messages",
        "last-assistant-message",
    ]
    assert (payload["type"], payload["thread-id"], payload["cwd"], payload["client"]) == (
        "agent-turn-complete",
        session,
        str(project),
        "codex_exec",
    )
    assert (payload["input-messages"], payload["last-assistant-message"]) == (
        ["question"],
        "the answer",
    )
