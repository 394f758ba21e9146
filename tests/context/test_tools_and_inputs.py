"""view_image, -i images, hosted web_search, update_plan → todo_list, global AGENTS.md."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path

import pytest

from codex_core.config import ConfigOverrides
from codex_core.protocol import ErrorEvent, LocalImageInput, TextInput, UserInputOp
from tests.context.harness import open_session, rollout_lines, user_texts
from tests.integration.session_harness import run_turn, run_until, shutdown, turn_ended
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn


def png(width: int = 2, height: int = 2) -> bytes:
    """A tiny valid PNG."""
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def data_url(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


def outputs(server: ModelServer) -> dict[str, object]:
    found: dict[str, object] = {}
    for body in server.bodies:
        for item in body["input"]:
            if item["type"] == "function_call_output":
                found[item["call_id"]] = item["output"]
    return found


async def test_view_image_answers_with_one_input_image(
    model_server: ModelServer, tmp_path: Path
) -> None:
    (tmp_path / "shot.png").write_bytes(png())
    (tmp_path / "notes.png").write_text("not an image")
    model_server.add(
        turn(function_call("view_image", {"path": "shot.png"}, call_id="v1")),
        turn(function_call("view_image", {"path": "notes.png"}, call_id="v2")),
        turn(function_call("view_image", {"path": "missing.png"}, call_id="v3")),
        turn(message("seen")),
    )
    session = await open_session(model_server, tmp_path / "home", tmp_path)
    await run_turn(session, "look")
    path = session.rollout_path
    await shutdown(session)
    spec = next(t for t in model_server.bodies[0]["tools"] if t.get("name") == "view_image")
    assert spec["parameters"]["required"] == ["path"]
    got = outputs(model_server)
    assert got["v1"] == [{"type": "input_image", "image_url": data_url(png()), "detail": "high"}]
    assert "not a PNG, JPEG, GIF or WebP image" in str(got["v2"])
    assert "no image at" in str(got["v3"])
    assert path is not None  # the image stays in the rollout, so a resume sends it again
    saved = [
        line["payload"]
        for line in rollout_lines(path)
        if line["type"] == "response_item" and line["payload"].get("call_id") == "v1"
    ]
    assert saved[-1]["output"] == got["v1"]


async def test_local_images_come_first_and_labelled_and_survive_resume(
    model_server: ModelServer, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    (tmp_path / "a.png").write_bytes(png(2, 2))
    (tmp_path / "b.png").write_bytes(png(3, 1))
    model_server.add(turn(message("ok")), turn(message("again")))
    session = await open_session(model_server, home, tmp_path)
    items = [
        TextInput(text="compare"),
        LocalImageInput(path="a.png"),
        LocalImageInput(path="b.png"),
    ]
    await session.submit(UserInputOp(items=items))  # type: ignore[arg-type]
    await run_until(session, turn_ended)
    path = session.rollout_path
    await shutdown(session)
    content = model_server.bodies[0]["input"][-1]["content"]
    assert content == [
        {"type": "input_text", "text": '<image name=[Image #1] path="a.png">'},
        {"type": "input_image", "image_url": data_url(png(2, 2)), "detail": "high"},
        {"type": "input_text", "text": "</image>"},
        {"type": "input_text", "text": '<image name=[Image #2] path="b.png">'},
        {"type": "input_image", "image_url": data_url(png(3, 1)), "detail": "high"},
        {"type": "input_text", "text": "</image>"},
        {"type": "input_text", "text": "compare"},
    ]
    assert path is not None
    resumed = await open_session(model_server, home, tmp_path, resume_path=path)
    await run_turn(resumed, "more")
    await shutdown(resumed)
    assert content in [i.get("content") for i in model_server.bodies[1]["input"]]


async def test_bad_image_input_is_refused_in_one_sentence(
    model_server: ModelServer, tmp_path: Path
) -> None:
    (tmp_path / "big.png").write_bytes(png() + b"\0" * (21 * 1024 * 1024))
    session = await open_session(model_server, tmp_path / "home", tmp_path)
    await session.submit(UserInputOp(items=[LocalImageInput(path="big.png")]))
    events = await run_until(session, lambda m: isinstance(m, ErrorEvent))
    await shutdown(session)
    last = events[-1]
    assert isinstance(last, ErrorEvent) and "the limit is 20,971,520" in last.message
    assert model_server.requests == []


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        (None, {"type": "web_search", "external_web_access": False}),
        ('web_search="cached"', {"type": "web_search", "external_web_access": False}),
        ('web_search="live"', {"type": "web_search", "external_web_access": True}),
        (
            'web_search="indexed"',
            {"type": "web_search", "external_web_access": True, "indexed_web_access": True},
        ),
        ('web_search="disabled"', None),
    ],
)
async def test_web_search_tool_follows_the_setting(
    model_server: ModelServer, tmp_path: Path, setting: str | None, expected: object
) -> None:
    model_server.add(turn(message("x")))
    session = await open_session(
        model_server, tmp_path / "home", tmp_path, *([setting] if setting else [])
    )
    await run_turn(session, "hi")
    await shutdown(session)
    hosted = [t for t in model_server.bodies[0]["tools"] if t["type"] == "web_search"]
    assert hosted == ([expected] if expected else [])


async def test_search_flag_selects_live_and_chat_gets_no_hosted_tool(
    model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(turn(message("x")), turn(message("y")))
    flags = ConfigOverrides(cwd=tmp_path, approval_policy="never", search=True)
    session = await open_session(model_server, tmp_path / "h1", tmp_path, overrides=flags)
    await run_turn(session, "hi")
    await shutdown(session)
    chat = await open_session(model_server, tmp_path / "h2", tmp_path, wire_api="chat")
    await run_turn(chat, "hi")
    await shutdown(chat)
    assert {"type": "web_search", "external_web_access": True} in model_server.bodies[0]["tools"]
    chat_tools = [t["function"]["name"] for t in model_server.bodies[1]["tools"]]
    assert "web_search" not in chat_tools


async def test_global_agents_md_comes_before_the_project_and_cap_applies(
    model_server: ModelServer, tmp_path: Path
) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    (project / ".git").mkdir(parents=True)
    (project / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (project / ".git" / "objects").mkdir()
    (home / "AGENTS.md").write_text("GLOBAL RULES\n")
    (project / "AGENTS.md").write_text("PROJECT RULES " + "x" * 100)
    model_server.add(turn(message("x")), turn(message("y")))
    session = await open_session(model_server, home, project)
    await run_turn(session, "hi")
    await shutdown(session)
    capped = await open_session(model_server, home, project, "project_doc_max_bytes=20")
    await run_turn(capped, "hi")
    await shutdown(capped)
    full, cut = (user_texts(b)[0] for b in model_server.bodies)
    assert full.index("GLOBAL RULES") < full.index("PROJECT RULES")
    assert "GLOBAL RULES" in cut and "PROJECT RULES xxxxxx" in cut and "x" * 7 not in cut


def test_update_plan_becomes_todo_list_items(tmp_path: Path) -> None:
    from codex_core.protocol import Event, PlanUpdateEvent, TaskCompleteEvent
    from codex_tui.exec.jsonl import JsonlProcessor

    class Out:
        lines: list[str] = []

        def write(self, text: str) -> None:
            self.lines.append(text)

        def flush(self) -> None:
            pass

    out = Out()
    renderer = JsonlProcessor(out)  # type: ignore[arg-type]
    for plan in (
        [("a", "in_progress"), ("b", "pending")],
        [("a", "completed"), ("b", "in_progress")],
    ):
        steps = [{"step": s, "status": st} for s, st in plan]
        renderer.handle(Event(id="1", msg=PlanUpdateEvent(plan=steps)))  # type: ignore[arg-type]
    renderer.handle(Event(id="1", msg=TaskCompleteEvent(last_agent_message=None)))
    lines = [json.loads(line) for line in out.lines]
    assert [(line["type"], line.get("item", {}).get("type")) for line in lines[:3]] == [
        ("item.started", "todo_list"),
        ("item.updated", "todo_list"),
        ("item.completed", "todo_list"),
    ]
    assert lines[2]["item"]["items"] == [
        {"text": "a", "completed": True},
        {"text": "b", "completed": False},
    ]
