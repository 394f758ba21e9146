"""PreCompact / PostCompact around a `/compact` and SessionEnd at shutdown (issue 25): each
runs once with 0.169's payload fields (`trigger`, `reason`), and ends as a hook run."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from codex_core.hooks.sources import load_hooks
from codex_core.protocol import CompactOp
from tests.integration.session_harness import (
    Workspace,
    run_turn,
    run_until,
    shutdown,
    start_session,
    turn_ended,
    workspace,  # noqa: F401 (fixture)
)
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn


def test_hooks_compaction_and_session_end_run_with_their_payloads(
    workspace: Workspace,  # noqa: F811
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
) -> None:
    records = tmp_path / "records"
    records.mkdir()
    groups = {}
    for event in ("PreCompact", "PostCompact", "SessionEnd"):
        script = tmp_path / f"{event}.sh"
        script.write_text(f"#!/bin/sh\ncat > {records}/{event}.json\n")
        script.chmod(0o755)
        group: dict[str, object] = {"hooks": [{"type": "command", "command": str(script)}]}
        if event != "SessionEnd":
            group["matcher"] = "manual"
        groups[event] = [group]
    (codex_home / "hooks.json").write_text(json.dumps({"hooks": groups}))
    (codex_home / "config.toml").write_text(
        "".join(
            f'[hooks.state."{h.key}"]\ntrusted_hash = "{h.current_hash}"\n'
            for h in load_hooks(codex_home, {}, None).hooks
        )
    )
    model_server.add(turn(message("hello")), turn(message("SUMMARY")))

    async def go() -> list[str]:
        session = await start_session(model_server, workspace, codex_home, "never")
        await run_turn(session, "hi")
        await session.submit(CompactOp())
        events = await run_until(session, turn_ended)
        await shutdown(session)
        return [e.type for e in events]

    seen = asyncio.run(go())
    assert seen.count("hook_started") == seen.count("hook_completed") == 2
    pre = json.loads((records / "PreCompact.json").read_text())
    post = json.loads((records / "PostCompact.json").read_text())
    end = json.loads((records / "SessionEnd.json").read_text())
    assert (pre["hook_event_name"], pre["trigger"]) == ("PreCompact", "manual")
    assert (post["hook_event_name"], post["trigger"]) == ("PostCompact", "manual")
    assert (end["hook_event_name"], end["reason"]) == ("SessionEnd", "other")
    assert "turn_id" not in end
