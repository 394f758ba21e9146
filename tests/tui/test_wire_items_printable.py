"""What the app-server sends reaches the screen printable: model text, command output,
commands, file names and a resumed thread's past carry no raw control sequence after the
event pump's preparation (`prepare`), whatever the wire held; ids stay as they are."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import BaseModel

from codex_core.items import client as c
from codex_tui.app.event_pump import prepare
from codex_tui.app.wire_items import EXEC_APPROVAL, WireItems

OSC52 = "\x1b]52;c;QkFTRTY0\x07"
T = "thread"


def strings(value: Any) -> Iterator[tuple[str, str]]:
    """Every string in a notice, with the name of the field that holds it."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        name, value = stack.pop()
        if isinstance(value, str):
            yield name, value
        elif isinstance(value, BaseModel) or (
            dataclasses.is_dataclass(value) and not isinstance(value, type)
        ):
            stack += list(vars(value).items())
        elif isinstance(value, tuple | list):
            stack += [(name, v) for v in value]
        elif isinstance(value, Mapping):
            stack += [(name, k) for k in value] + [(name, v) for v in value.values()]


def test_wire_items_printable_live_and_past() -> None:
    command = {
        "id": "c1",
        "type": "commandExecution",
        "command": f"echo '{OSC52}'",
        "cwd": "/w",
        "status": "inProgress",
    }
    past = {
        "id": "old",
        "status": "completed",
        "items": [
            {"id": "u", "type": "userMessage", "content": [{"type": "text", "text": OSC52}]},
            {
                **command,
                "id": "c0",
                "status": "completed",
                "exitCode": 0,
                "aggregatedOutput": OSC52,
            },
            {
                "id": "p0",
                "type": "fileChange",
                "status": "completed",
                "changes": [{"path": f"/w/{OSC52}", "kind": {"type": "add"}, "diff": OSC52}],
            },
            {"id": "a0", "type": "agentMessage", "text": f"old {OSC52}"},
        ],
    }
    wire = WireItems()
    notices: list[c.ClientNotice] = [
        wire.thread_opened({"thread": {"id": T, "cwd": "/w", "turns": [past]}, "model": OSC52})
    ]

    def note(method: str, **params: Any) -> None:
        notices.extend(wire.notification(method, {"threadId": T, **params}))

    note("turn/started", turn={"id": "t1"})
    note("item/started", item=command)
    params = {"threadId": T, "itemId": "c1", "command": command["command"], "reason": OSC52}
    notices.extend(wire.server_request(5, EXEC_APPROVAL, params))
    note("serverRequest/resolved", requestId=5)
    note("item/commandExecution/outputDelta", itemId="c1", delta="\x1b]52;c;")
    note("item/commandExecution/outputDelta", itemId="c1", delta="QkFTRTY0\x07")
    note("item/agentMessage/delta", itemId="a1", delta=OSC52[:3])
    note("item/agentMessage/delta", itemId="a1", delta=OSC52[3:])
    note("item/completed", item={"id": "a1", "type": "agentMessage", "text": OSC52})
    note("warning", message=OSC52)
    note("error", willRetry=False, error={"message": OSC52})
    note("turn/completed", turn={"id": "t1", "status": "completed"})

    shown = prepare(notices)
    found = [(name, text) for notice in shown for name, text in strings(notice)]
    raw = [(name, text) for name, text in found if "\x1b" in text or "\x07" in text]
    assert raw == []
    assert sum("␛]52;c;QkFTRTY0␇" in text for _, text in found) >= 10
    assert isinstance(shown[0], c.ThreadOpened) and shown[0].thread_id == T
