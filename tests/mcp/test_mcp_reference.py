"""The reference MCP servers from npm and PyPI through `codex exec --json`, shaped as 0.169.

Expected outputs were observed from codex-rust 0.169 against the same servers and calls.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import namespace_call, outputs_by_call, run_exec, write_config
from tests.mcp.reference import ReferenceServers, reference_servers
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn

pytestmark = pytest.mark.e2e
__all__ = ["reference_servers"]


def resource_call(name: str, arguments: dict[str, Any], call_id: str) -> Any:
    return turn(function_call(name, json.dumps(arguments), call_id=call_id))


def mcp_items(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        line["item"]
        for line in lines
        if line["type"] == "item.completed" and line["item"]["type"] == "mcp_tool_call"
    ]


def without_wall_time(output: Any) -> Any:
    return [p for p in output if not p.get("text", "").startswith("Wall time")]


def test_resource_tools_list_and_read_the_everything_server(
    codex_bin: Path,
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
    reference_servers: ReferenceServers,
) -> None:
    write_config(
        codex_home,
        reference_servers.toml("everything", reference_servers.everything)
        + reference_servers.toml("time", reference_servers.time),
    )
    model_server.add(
        resource_call("list_mcp_resources", {}, "all"),
        resource_call("list_mcp_resource_templates", {"server": "everything"}, "templates"),
        resource_call(
            "read_mcp_resource",
            {"server": "everything", "uri": "demo://resource/static/document/features.md"},
            "read",
        ),
        resource_call("list_mcp_resources", {"server": "nope"}, "unknown"),
        resource_call("list_mcp_resources", {"cursor": "abc"}, "cursor"),
        resource_call("read_mcp_resource", {"server": "everything"}, "no_uri"),
        turn(message("done")),
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    names = [t.get("name") for t in model_server.requests[0].body["tools"]]
    assert names[:5] == [
        "exec_command",
        "write_stdin",
        "list_mcp_resources",
        "list_mcp_resource_templates",
        "read_mcp_resource",
    ]
    outputs = outputs_by_call(model_server)
    listed = json.loads(outputs["all"])
    assert listed["resources"][0] == {
        "server": "everything",
        "uri": "demo://resource/static/document/architecture.md",
        "name": "architecture.md",
        "description": "Static document file exposed from /docs: architecture.md",
        "mimeType": "text/markdown",
    }
    assert outputs["all"].startswith('{"resources":[{"server":"everything","uri":')
    assert {r["server"] for r in listed["resources"]} == {"everything"}  # time has none
    templates = json.loads(outputs["templates"])
    assert templates["server"] == "everything"
    assert templates["resourceTemplates"][0] == {
        "server": "everything",
        "uriTemplate": "demo://resource/dynamic/text/{resourceId}",
        "name": "Dynamic Text Resource",
        "description": "Plaintext dynamic resource fabricated from the {resourceId} variable, "
        "which must be an integer.",
        "mimeType": "text/plain",
    }
    read = json.loads(outputs["read"])
    assert [list(c) for c in read["contents"]] == [["uri", "mimeType", "text"]]
    assert read["contents"][0]["text"].startswith("# Everything Server - Features")
    assert outputs["unknown"] == "unknown MCP server 'nope'"
    assert outputs["cursor"] == "cursor can only be used when a server is specified"
    assert outputs["no_uri"] == "failed to parse function arguments: missing field `uri`"
    items = mcp_items(lines)
    assert [(i["server"], i["tool"], i["status"]) for i in items] == [
        ("codex", "list_mcp_resources", "completed"),
        ("everything", "list_mcp_resource_templates", "completed"),
        ("everything", "read_mcp_resource", "completed"),
    ]
    assert items[0]["result"]["content"] == [{"type": "text", "text": outputs["all"]}]


def test_everything_results_keep_resource_uri_and_image_detail(
    codex_bin: Path,
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
    reference_servers: ReferenceServers,
) -> None:
    write_config(codex_home, reference_servers.toml("everything", reference_servers.everything))
    model_server.add(
        namespace_call("mcp__everything", "get_tiny_image", {}, "image"),
        namespace_call(
            "mcp__everything",
            "get_resource_reference",
            {"resourceType": "Text", "resourceId": 2},
            "embedded",
        ),
        namespace_call("mcp__everything", "get_resource_links", {"count": 1}, "link"),
        turn(message("done")),
    )
    done, _ = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    outputs = outputs_by_call(model_server)
    image = [p for p in outputs["image"] if p["type"] == "input_image"]
    assert [(p["image_url"][:22], p["detail"]) for p in image] == [
        ("data:image/png;base64,", "high")
    ]
    embedded = without_wall_time(outputs["embedded"])[1]["text"]
    assert embedded.startswith(
        '{"type":"resource","resource":{"uri":"demo://resource/dynamic/text/2",'
        '"mimeType":"text/plain","text":"Resource 2: This is a plaintext resource'
    )
    assert without_wall_time(outputs["link"])[1] == {
        "type": "input_text",
        "text": '{"type":"resource_link","uri":"demo://resource/dynamic/blob/1",'
        '"name":"Blob Resource 1","description":"Resource 1: plaintext resource",'
        '"mimeType":"text/plain"}',
    }


def test_git_server_schema_keeps_min_items_with_sorted_properties(
    codex_bin: Path,
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
    reference_servers: ReferenceServers,
) -> None:
    write_config(codex_home, reference_servers.toml("git", reference_servers.git))
    model_server.add(turn(message("done")))
    done, _ = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    namespace = next(
        t for t in model_server.requests[0].body["tools"] if t.get("name") == "mcp__git"
    )
    git_add = next(t for t in namespace["tools"] if t["name"] == "git_add")
    # Byte for byte as codex-rust 0.169 sends it.
    assert json.dumps(git_add["parameters"], separators=(",", ":")) == (
        '{"type":"object","properties":{"files":{"type":"array","items":{"type":"string"},'
        '"minItems":1},"repo_path":{"type":"string"}},"required":["repo_path","files"]}'
    )


def test_exec_declines_elicitation_and_runs_tools_without_side_effects(
    codex_bin: Path,
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
    reference_servers: ReferenceServers,
) -> None:
    write_config(codex_home, reference_servers.toml("everything", reference_servers.everything))
    model_server.add(
        namespace_call("mcp__everything", "trigger_elicitation_request", {}, "elicit"),
        namespace_call("mcp__everything", "toggle_simulated_logging", {}, "harmless"),
        namespace_call(
            "mcp__everything", "trigger_url_elicitation", {"url": "https://example.com/"}, "open"
        ),
        turn(message("done")),
    )
    done, _ = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    namespace = next(
        t for t in model_server.requests[0].body["tools"] if t.get("name") == "mcp__everything"
    )
    names = [t["name"] for t in namespace["tools"]]  # offered only to clients that elicit
    assert {"trigger_elicitation_request", "trigger_url_elicitation"} <= set(names)
    outputs = outputs_by_call(model_server)
    assert without_wall_time(outputs["elicit"]) == [
        {"type": "input_text", "text": "❌ User declined to provide the requested information."},
        {"type": "input_text", "text": '\nRaw result: {\n  "action": "decline"\n}'},
    ]
    # destructiveHint and openWorldHint both false: runs under `never`, as in 0.169.
    assert without_wall_time(outputs["harmless"])[0]["text"].startswith("Started simulated")
    assert without_wall_time(outputs["open"]) == [
        {
            "type": "input_text",
            "text": "MCP tool call requires approval, but approval policy is never",
        }
    ]
