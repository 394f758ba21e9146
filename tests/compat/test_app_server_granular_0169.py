"""Side by side with codex-rust 0.169: a thread started with `approvalPolicy: {"granular":
{...}}` reports the same object, asks (or not) about the same escalation, and records the same
`turn_context.approval_policy`, and indexes the thread in state_5.sqlite with the same
`sandbox_policy` (the protected names read-only) and `approval_mode` (the object); recorded in tests/fixtures/app_server_granular_0169.json."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.compat.conftest import MODEL, Cli
from tests.servers.rpc_client import AppServerClient
from tests.support.model_server import ModelServer
from tests.support.sse import OutputItem, custom_tool_call, function_call, message, turn


def _run(cli: Cli, cwd: Path, outside: Path, granular: dict[str, Any]) -> dict[str, Any]:
    args = {
        "cmd": f"touch {outside}/x",
        "sandbox_permissions": "require_escalated",
        "justification": "Touch outside?",
    }
    steps = [turn(function_call("exec_command", args, call_id="e1")), turn(message("done"))]
    with ModelServer(steps) as server:
        flags = [*server.cli_flags(), "-c", MODEL]
        argv = [cli.binary, *flags, "app-server", "--listen", "stdio://"]
        client = AppServerClient(cli.home, cwd, flags, None, argv=argv)
        init = {
            "clientInfo": {"name": "tests", "version": "1"},
            "capabilities": {"experimentalApi": True},
        }
        client.call("initialize", init)
        client.send({"method": "initialized"})
        params = {"cwd": str(cwd), "sandbox": "workspace-write", "approvalPolicy": granular}
        started = client.call("thread/start", params, timeout=60)["result"]
        thread_id = started["thread"]["id"]
        asked = _declined_turn(client, thread_id)
        client.close()
    [rollout] = list(cli.home.glob(f"sessions/**/rollout-*{thread_id}.jsonl"))
    contexts = [
        record["payload"]["approval_policy"]
        for record in map(json.loads, rollout.read_text().splitlines())
        if record["type"] == "turn_context"
    ]
    db = sqlite3.connect(cli.home / "state_5.sqlite")
    row = db.execute(
        "SELECT sandbox_policy, approval_mode FROM threads WHERE id = ?", (thread_id,)
    ).fetchone()
    db.close()
    return {
        "state_db": row,
        "approvalPolicy": started["approvalPolicy"],
        "asked": asked,
        "outside": sorted(p.name for p in outside.iterdir()),
        "turn_context": contexts,
    }


@pytest.mark.parametrize("sandbox_approval", [True, False])
def test_granular_thread_as_0169(
    ours: Cli, rust: Cli, project: Path, tmp_path: Path, sandbox_approval: bool
) -> None:
    granular = {
        "granular": {"sandbox_approval": sandbox_approval, "rules": False, "mcp_elicitations": True}
    }
    seen = {}
    for who, cli in (("rust", rust), ("ours", ours)):
        outside = tmp_path / f"outside-{who}"
        outside.mkdir()
        seen[who] = _run(cli, project, outside, granular)
    assert seen["ours"] == seen["rust"]
    assert seen["rust"]["asked"] == (
        ["item/commandExecution/requestApproval"] if sandbox_approval else []
    )


def _rules_run(cli: Cli, cwd: Path, rules: bool) -> tuple[list[str], bool]:
    """A `.rules` prompt for `touch` under granular with `rules` on or off: the server
    requests the client saw (all declined) and whether the file was made."""
    (cli.home / "rules").mkdir(exist_ok=True)
    rule = 'prefix_rule(pattern=["touch"], decision="prompt")\n'
    (cli.home / "rules" / "default.rules").write_text(rule)
    flag = "true" if rules else "false"
    (cli.home / "config.toml").write_text(
        f"approval_policy = {{ granular = {{ sandbox_approval = false, rules = {flag}, "
        "mcp_elicitations = true } }\n"
    )
    target = cwd / "made.txt"
    call = function_call("exec_command", {"cmd": f"touch {target}"}, call_id="e1")
    asked = _declining_turn(cli, cwd, call)
    made = target.exists()
    target.unlink(missing_ok=True)
    return asked, made


@pytest.mark.parametrize("rules", [True, False])
def test_granular_rules_setting_as_0169(ours: Cli, rust: Cli, project: Path, rules: bool) -> None:
    theirs = _rules_run(rust, project, rules)
    assert _rules_run(ours, project, rules) == theirs
    assert theirs == ((["item/commandExecution/requestApproval"] if rules else []), False)


def _patch_run(cli: Cli, cwd: Path, outside: Path, sandbox_approval: bool) -> list[str]:
    """A patch adding a file outside the workspace under granular: the server requests the
    client saw (all declined)."""
    flag = "true" if sandbox_approval else "false"
    (cli.home / "config.toml").write_text(
        f"approval_policy = {{ granular = {{ sandbox_approval = {flag}, rules = false, "
        "mcp_elicitations = true } }\n"
    )
    patch = f"*** Begin Patch\n*** Add File: {outside}/x.txt\n+hi\n*** End Patch\n"
    call = custom_tool_call("apply_patch", patch, call_id="p1")
    asked = _declining_turn(cli, cwd, call)
    return asked


@pytest.mark.parametrize("sandbox_approval", [True, False])
def test_granular_patch_outside_as_0169(
    ours: Cli, rust: Cli, project: Path, shared_home: Path, sandbox_approval: bool
) -> None:
    # Outside /tmp (a writable root) and the workspace: beside the shared CODEX_HOME.
    outside = shared_home.parent / f"{shared_home.name}-outside"
    outside.mkdir()
    try:
        theirs = _patch_run(rust, project, outside, sandbox_approval)
        assert _patch_run(ours, project, outside, sandbox_approval) == theirs
        assert theirs == (["item/fileChange/requestApproval"] if sandbox_approval else [])
        assert list(outside.iterdir()) == []
    finally:
        outside.rmdir()


def _declining_turn(cli: Cli, cwd: Path, call: OutputItem) -> list[str]:
    """One workspace-write turn on `cli`'s app-server whose model makes `call`, every
    request to the client declined: the methods of the requests, in order."""
    with ModelServer([turn(call), turn(message("done"))]) as server:
        flags = [*server.cli_flags(), "-c", MODEL]
        argv = [cli.binary, *flags, "app-server", "--listen", "stdio://"]
        client = AppServerClient(cli.home, cwd, flags, None, argv=argv)
        client.initialize()
        params = {"cwd": str(cwd), "sandbox": "workspace-write"}
        thread_id = client.call("thread/start", params, timeout=60)["result"]["thread"]["id"]
        asked = _declined_turn(client, thread_id)
        client.close()
    return asked


def _declined_turn(client: AppServerClient, thread_id: str) -> list[str]:
    """Run one turn, declining every request to the client: the requests' methods."""
    go = {"threadId": thread_id, "input": [{"type": "text", "text": "go"}]}
    client.call("turn/start", go, timeout=60)
    asked: list[str] = []
    while True:
        msg = client.next(timeout=60)
        if "id" in msg and "method" in msg:
            asked.append(msg["method"])
            client.send({"id": msg["id"], "result": {"decision": "decline"}})
        if msg.get("method") == "turn/completed":
            return asked
