"""`hooks/list` and `skills/list` through `codex app-server` (issue 25), schema-checked
against the 0.169 bundle; `hooks/list` matches what `codex-rust app-server` answered for the
same hooks.json (tests/fixtures/hooks_0169/hooks_list.json)."""

from __future__ import annotations

import json
from pathlib import Path

from codex_core.hooks.sources import load_hooks
from tests.servers.conftest import AppServerFactory
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "hooks_0169" / "hooks_list.json"


def test_app_server_hooks_list_as_0169_lists_them(
    app_server: AppServerFactory, codex_home: Path, workspace: Path
) -> None:
    recorded = json.loads(FIXTURE.read_text())
    (codex_home / "hooks.json").write_text(json.dumps(recorded["hooks"]))
    first = load_hooks(codex_home, {}, None).hooks[0]
    config = codex_home / "config.toml"
    config.write_text(config.read_text() if config.exists() else "")
    with config.open("a") as handle:
        handle.write(f'\n[hooks.state."{first.key}"]\ntrusted_hash = "{first.current_hash}"\n')
    client = app_server()
    client.initialize()
    answer = client.call("hooks/list", {"cwds": [str(workspace)]})["result"]
    [entry] = answer["data"]
    assert entry["cwd"] == str(workspace)
    keep = (
        "key",
        "eventName",
        "matcher",
        "command",
        "timeoutSec",
        "statusMessage",
        "currentHash",
        "displayOrder",
        "enabled",
        "source",
    )
    ours = [{k: h[k] for k in keep} for h in entry["hooks"]]
    theirs = [
        {k: (h[k].replace("{CODEX_HOME}", str(codex_home)) if k == "key" else h[k]) for k in keep}
        for h in recorded["listed"]
    ]
    assert ours == theirs
    assert [h["trustStatus"] for h in entry["hooks"]] == ["trusted"] + ["untrusted"] * 6


def test_app_server_skills_list_shows_enabled_disabled_and_broken(
    app_server: AppServerFactory, codex_home: Path, workspace: Path
) -> None:
    for name, description in (("alpha", "first"), ("beta", "second")):
        folder = codex_home / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n")
    (codex_home / "skills" / "broken").mkdir()
    (codex_home / "skills" / "broken" / "SKILL.md").write_text("no frontmatter\n")
    config = codex_home / "config.toml"
    existing = config.read_text() if config.exists() else ""
    config.write_text(existing + '\n[[skills.config]]\nname = "beta"\nenabled = false\n')
    client = app_server()
    client.initialize()
    [entry] = client.call("skills/list", {"cwds": [str(workspace)]})["result"]["data"]
    assert [(s["name"], s["enabled"], s["scope"]) for s in entry["skills"]] == [
        ("alpha", True, "user"),
        ("beta", False, "user"),
    ]
    assert entry["errors"] == [
        {
            "message": "missing YAML frontmatter delimited by ---",
            "path": str(codex_home / "skills" / "broken" / "SKILL.md"),
        }
    ]


def test_app_server_skill_mention_reaches_the_model(
    app_server: AppServerFactory, codex_home: Path, model_server: ModelServer
) -> None:
    folder = codex_home / "skills" / "alpha"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text("---\nname: alpha\ndescription: first\n---\nALPHA STEPS\n")
    model_server.add(turn(message("ok")))
    client = app_server()
    client.initialize()
    thread_id = client.call("thread/start", {})["result"]["thread"]["id"]
    client.call(
        "turn/start", {"threadId": thread_id, "input": [{"type": "text", "text": "use $alpha"}]}
    )
    client.notification("turn/completed", timeout=30)
    texts = [
        part.get("text", "")
        for item in model_server.bodies[-1]["input"]
        if item.get("type") == "message"
        for part in item["content"]
    ]
    assert any(t.startswith("<skills_instructions>") and "- alpha: first" in t for t in texts)
    assert any(t.startswith("<skill>\n<name>alpha</name>") and "ALPHA STEPS" in t for t in texts)
