"""Hook runs over the app-server (issue 25): `hook/started` / `hook/completed` as codex-rust
0.169 sends them, schema-checked against its bundle and compared with a recording of
`codex-rust app-server` running the same three trusted hooks (SessionStart printing context,
UserPromptSubmit, a failing Stop) in tests/fixtures/hooks_0169/app_server_hook_runs.json:
the same messages in the same places among the turn's items, the same run ids, sources,
scopes, statuses and entries (times left out)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from codex_core.config.edit import set_hook_state
from codex_core.hooks.sources import load_hooks
from tests.servers.conftest import AppServerFactory
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

FIXTURE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "hooks_0169" / "app_server_hook_runs.json"
)
HOOKS = {
    "SessionStart": [
        {"hooks": [{"type": "command", "command": "echo SESSION-CTX", "timeout": 30}]}
    ],
    "UserPromptSubmit": [
        {"hooks": [{"type": "command", "command": "cat > /dev/null", "timeout": 30}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "echo broken >&2; exit 1", "timeout": 30}]}],
}
SHOWN = (
    "hook/started",
    "hook/completed",
    "turn/started",
    "turn/completed",
    "item/started",
    "item/completed",
)


def _shown(received: list[dict[str, Any]], home: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for msg in received:
        method = msg.get("method", "")
        if method not in SHOWN or "id" in msg:
            continue
        params = msg["params"]
        if not method.startswith("hook/"):
            out.append({"method": method, "item": (params.get("item") or {}).get("type")})
            continue
        run = dict(params["run"])
        for key in ("startedAt", "completedAt", "durationMs"):
            if run.get(key) is not None:
                run[key] = "<n>"
        for key in ("id", "sourcePath"):
            run[key] = run[key].replace(str(home), "{CODEX_HOME}")
        out.append({"method": method, "hasTurnId": params.get("turnId") is not None, "run": run})
    return out


def test_app_server_hook_runs_as_0169_sends_them(
    app_server: AppServerFactory, codex_home: Path, workspace: Path, model_server: ModelServer
) -> None:
    (codex_home / "hooks.json").write_text(json.dumps({"hooks": HOOKS}))
    for hook in load_hooks(codex_home, {}, None).hooks:
        set_hook_state(codex_home, hook.key, trusted_hash=hook.current_hash)
    model_server.add(turn(message("done")))
    client = app_server()
    client.initialize()
    thread = client.call("thread/start", {"cwd": str(workspace)})["result"]["thread"]["id"]
    client.call("turn/start", {"threadId": thread, "input": [{"type": "text", "text": "hi"}]})
    client.wait_for(lambda m: m.get("method") == "turn/completed", 60)
    client.quiet_for(0.5)
    assert _shown(client.received, codex_home) == json.loads(FIXTURE.read_text())
    started = [m for m in client.received if m.get("method") == "hook/started"]
    assert {m["params"]["turnId"] for m in started} == {
        next(m for m in client.received if m.get("method") == "turn/started")["params"]["turn"][
            "id"
        ]
    }
