"""update_plan is offered to no model (as Codex 0.169 by default), yet a call of it still works.

Observed with codex-rust 0.169 (`codex exec --json`, scripted server): the first request's
tools hold no `update_plan` for gpt-5.1-codex, gpt-5, gpt-5.2, gpt-5.4, gpt-5.5, gpt-4.1, o3,
gpt-oss-20b or codex-mini-latest; `-c tools.update_plan.enabled=true` adds it right after
`write_stdin` (`-c tools.update_plan.enabled=false` is the default).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.model_family import offers_update_plan
from codex_core.protocol import PlanUpdateEvent
from tests.context.harness import open_session
from tests.integration.session_harness import run_turn, shutdown
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn, update_plan_call

MODELS = ["gpt-5.1-codex", "gpt-5", "gpt-5.5", "gpt-4.1", "o3", "gpt-oss-20b"]


@pytest.mark.parametrize("model", MODELS)
def test_update_plan_offered_to_no_model_family(model: str) -> None:
    assert not offers_update_plan(model)
    assert not offers_update_plan(model, "chat")
    assert offers_update_plan(model, enabled=True)


async def test_update_plan_offered_only_when_tools_update_plan_enabled(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(turn(message("one")), turn(message("two")))
    for home, setting in (("off", ""), ("on", "[tools.update_plan]\nenabled = true\n")):
        (tmp_path / home).mkdir()
        (tmp_path / home / "config.toml").write_text(setting)
        session = await open_session(model_server, tmp_path / home, tmp_path)
        await run_turn(session, "hi")
        await shutdown(session)
    off, on = ([t.get("name", t["type"]) for t in b["tools"]] for b in model_server.bodies)
    assert on == [*off[:2], "update_plan", *off[2:]]
    assert off[:3] == ["exec_command", "write_stdin", "apply_patch"]
    [spec] = [t for t in model_server.bodies[1]["tools"] if t.get("name") == "update_plan"]
    assert spec["type"] == "function" and spec["parameters"]["required"] == ["plan"]


async def test_update_plan_not_offered_but_a_call_still_updates_the_plan(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(
        turn(update_plan_call([("read", "in_progress")], call_id="p1")),
        turn(message("done")),
    )
    session = await open_session(model_server, tmp_path / "home", tmp_path)
    events = await run_turn(session, "plan it")
    await shutdown(session)
    names = [t.get("name", t["type"]) for t in model_server.bodies[0]["tools"]]
    assert "update_plan" not in names and "exec_command" in names
    plans = [e for e in events if isinstance(e, PlanUpdateEvent)]
    assert [[(p.step, p.status) for p in e.plan] for e in plans] == [[("read", "in_progress")]]
    outputs = [i for i in model_server.bodies[1]["input"] if i["type"] == "function_call_output"]
    assert [(o["call_id"], o["output"]) for o in outputs] == [("p1", "Plan updated")]
