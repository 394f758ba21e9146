"""The wire models prepared together (`model_build`) validate and serialise exactly as the
models prepared on first use do; each fresh interpreter prepares them one way."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """
import json, sys
from codex_core.lite.checks import _SPECS
from codex_core.servers.app_server import model_build
from codex_core.servers.app_server import model_methods as m, model_notify as n
from codex_core.servers.app_server import model_thread as t
if sys.argv[1] == "leaves-first":
    model_build.build_thread_models()
built = [model.__name__ for model in model_build._thread_models() if model in _SPECS]
thread = {
    "id": "t1", "sessionId": "t1", "modelProvider": "openai", "createdAt": 1, "updatedAt": 2,
    "cwd": "/w", "cliVersion": "0", "status": {"type": "active", "activeFlags": []},
    "turns": [{"id": "u1", "status": "completed", "items": [
        {"type": "userMessage", "id": "i1", "content": [{"type": "text", "text": "hi"}]},
        {"type": "agentMessage", "id": "i2", "text": "hello"},
        {"type": "commandExecution", "id": "i3", "command": "ls", "cwd": "/w",
         "status": "completed", "commandActions": []},
    ]}],
}
response = m.ThreadSessionResponse.model_validate(
    {"thread": thread, "model": "gpt", "modelProvider": "openai", "cwd": "/w",
     "approvalPolicy": "never", "sandbox": {"type": "readOnly"}}
)
started = n.ItemStartedNotification.model_validate(
    {"threadId": "t1", "turnId": "u1", "startedAtMs": 5, "item": thread["turns"][0]["items"][2]}
)
print(json.dumps({
    "built": built,
    "dumps": [
        response.model_dump(mode="json"),
        m.TurnStartResponse(turn=t.Turn(id="u2")).model_dump(mode="json"),
        started.model_dump(mode="json"),
    ],
    "schemas": [
        model.model_json_schema(mode=mode)
        for model in (t.Thread, m.ThreadSessionResponse, n.ItemCompletedNotification)
        for mode in ("validation", "serialization")
    ],
}))
"""


def _run(mode: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_models_built_leaves_first_behave_as_models_built_on_first_use() -> None:
    leaves_first, on_first_use = _run("leaves-first"), _run("on-first-use")
    assert "Thread" in leaves_first["built"] and "TurnStartResponse" in leaves_first["built"]
    assert on_first_use["built"] == []  # nothing built before its first use
    assert leaves_first["dumps"] == on_first_use["dumps"]
    assert leaves_first["schemas"] == on_first_use["schemas"]


def test_building_twice_builds_once() -> None:
    from codex_core.lite.checks import _SPECS
    from codex_core.servers.app_server import model_build

    model_build.build_thread_models()
    specs = {model: _SPECS[model] for model in model_build._thread_models()}
    model_build.build_thread_models()
    assert all(_SPECS[model] is spec for model, spec in specs.items())
