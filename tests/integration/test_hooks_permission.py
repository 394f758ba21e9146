"""PermissionRequest hooks answer an approval before the user is asked (issue 25), as seen
with `codex-rust app-server` 0.169: `deny` refuses the command without a prompt, `allow`
runs it without one, no decision leaves the question to the user. The payload names the
command as hooks see it (`Bash`, the script, the model's justification as `description`)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from codex_core.hooks.sources import load_hooks
from tests.integration.session_harness import (
    Approver,
    Workspace,
    run_turn,
    shutdown,
    start_session,
    tool_outputs,
    workspace,  # noqa: F401 (fixture)
)
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn

ESCALATE = {
    "cmd": "touch escalated.txt",
    "sandbox_permissions": "require_escalated",
    "justification": "need it",
}


def install(home: Path, tmp: Path, behavior: str | None) -> Path:
    records = tmp / "records"
    records.mkdir(exist_ok=True)
    answer = (
        json.dumps(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PermissionRequest",
                    "decision": {"behavior": behavior},
                }
            }
        )
        if behavior
        else ""
    )
    script = tmp / "perm.sh"
    script.write_text(f"#!/bin/sh\ncat > {records}/payload.json\necho '{answer}'\n")
    script.chmod(0o755)
    handler = {"type": "command", "command": str(script), "timeout": 10}
    groups = {"PermissionRequest": [{"matcher": "Bash", "hooks": [handler]}]}
    (home / "hooks.json").write_text(json.dumps({"hooks": groups}))
    hook = load_hooks(home, {}, None).hooks[0]
    (home / "config.toml").write_text(
        f'[hooks.state."{hook.key}"]\ntrusted_hash = "{hook.current_hash}"\n'
    )
    return records / "payload.json"


@pytest.mark.parametrize(
    ("behavior", "asked", "ran"),
    [("deny", False, False), ("allow", False, True), (None, True, False)],
)
def test_hooks_permission_request_decides_before_the_user(
    behavior: str | None,
    asked: bool,
    ran: bool,
    workspace: Workspace,  # noqa: F811
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
) -> None:
    payload_file = install(codex_home, tmp_path, behavior)
    model_server.add(
        turn(function_call("exec_command", ESCALATE, call_id="c1")), turn(message("done"))
    )
    approver = Approver(default="denied")

    async def go() -> None:
        session = await start_session(model_server, workspace, codex_home, "on-request")
        await run_turn(session, "go", approver)
        await shutdown(session)

    asyncio.run(go())
    assert (approver.asked == ["c1"]) is asked
    assert (workspace.root / "escalated.txt").exists() is ran
    if not ran:
        assert "rejected" in tool_outputs(model_server)["c1"]
    payload = json.loads(payload_file.read_text())
    assert payload["tool_name"] == "Bash"
    assert payload["tool_input"] == {"command": "touch escalated.txt", "description": "need it"}
    assert payload["permission_mode"] == "default"
