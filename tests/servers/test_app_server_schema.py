"""`codex app-server generate-json-schema` writes the schema of what this server implements."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from codex_core.servers.app_server.method_tables import METHODS
from codex_core.servers.app_server.translate import Translator
from tests.servers.rpc_client import CODEX


def test_app_server_generate_json_schema(tmp_path: Path) -> None:
    out = tmp_path / "schema"
    done = subprocess.run(
        [str(CODEX), "app-server", "generate-json-schema", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    requests = json.loads((out / "ClientRequest.json").read_text())
    assert sorted(requests["discriminator"]["mapping"]) == sorted(METHODS)
    notes = json.loads((out / "ServerNotification.json").read_text())
    names = set(notes["discriminator"]["mapping"])
    assert {"turn/started", "item/agentMessage/delta", "turn/completed"} <= names
    assert (out / "v2" / "ThreadStartResponse.json").is_file()
    assert (out / "v1" / "InitializeResponse.json").is_file()


def test_app_server_translator_ignores_unknown_turns() -> None:
    from codex_core.protocol import AgentMessageDeltaEvent, Event

    translator = Translator("t1")
    assert translator.translate(Event(id="9", msg=AgentMessageDeltaEvent(delta="x"))) == []
