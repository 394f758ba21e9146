"""Pure parts of the MCP client: schema cleaning, names, approvals, results, `codex mcp`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp import types

from codex_core.mcp.approval import mcp_call_approval
from codex_core.mcp.results import error_output, result_output, truncate_text
from codex_core.mcp.schema import clean_input_schema, clean_schema
from codex_core.mcp.specs import assign_names, cap_name, chat_tool_specs, sanitize_name

# Input → what the Codex CLI 0.169 sent for it (observed against codex-rust).
SCHEMA_CASES: list[tuple[Any, dict[str, Any]]] = [
    ({"description": "d"}, {}),
    ({"enum": ["a", 1]}, {"type": "string", "enum": ["a", 1]}),
    ({"minimum": 1}, {"type": "number"}),
    ({"items": {"type": "string"}}, {"type": "array", "items": {"type": "string"}}),
    ({"format": "uri"}, {"type": "string"}),
    ({"type": "array"}, {"type": "array", "items": {"type": "string"}}),
    (True, {"type": "string"}),
    ({"oneOf": [{"type": "string"}]}, {"oneOf": [{"type": "string"}]}),
    (
        {"type": ["string", "null"], "description": "n"},
        {"type": ["string", "null"], "description": "n"},
    ),
    ({"type": "foo"}, {}),
    ({"type": "string", "title": "T", "examples": ["e"], "default": "x"}, {"type": "string"}),
    ({"required": ["x"]}, {"type": "object", "properties": {}, "required": ["x"]}),
    ({"type": "integer", "enum": [1, 2], "const": 1}, {"type": "integer", "enum": [1]}),
    ({"not": {"type": "string"}}, {}),
    ({"$ref": "#/$defs/Y", "description": "r"}, {"$ref": "#/$defs/Y", "description": "r"}),
]


@pytest.mark.parametrize(("schema", "expected"), SCHEMA_CASES)
def test_mcp_schema_cleaning_matches_codex(schema: Any, expected: dict[str, Any]) -> None:
    assert clean_schema(schema) == expected


def test_mcp_input_schema_drops_titles_and_keeps_defs() -> None:
    schema = {
        "type": "object",
        "title": "Args",
        "properties": {"n": {"$ref": "#/$defs/I"}},
        "$defs": {
            "I": {
                "type": "object",
                "title": "I",
                "properties": {"x": {"title": "X", "type": "integer"}},
            }
        },
    }
    assert clean_input_schema(schema) == {
        "type": "object",
        "properties": {"n": {"$ref": "#/$defs/I"}},
        "$defs": {"I": {"type": "object", "properties": {"x": {"type": "integer"}}}},
    }
    assert clean_input_schema({"type": "string"}) == {"type": "object", "properties": {}}


def test_mcp_names_sanitised_deduplicated_and_capped() -> None:
    assert sanitize_name("dotted.name-x") == "dotted_name_x"
    infos = assign_names(
        "my.server",
        [
            ("a.b", "", {}, False, None),
            ("a-b", "", {}, False, None),
            ("z" * 80, "", {}, True, None),
        ],
    )
    assert infos[0].model_name == "a_b"
    assert infos[1].model_name != "a_b" and infos[1].model_name.startswith("a_b_")
    assert infos[0].flat_name == "mcp__my_server__a_b"
    assert all(len(i.flat_name) <= 64 for i in infos)
    assert cap_name("q" * 70) != cap_name("q" * 71)
    assert [s.name for s in chat_tool_specs(infos)] == sorted(i.flat_name for i in infos)


@pytest.mark.parametrize(
    ("policy", "mode", "read_only", "full", "expected"),
    [
        ("never", None, True, False, "run"),
        ("never", None, False, False, "refuse"),
        ("never", "approve", False, False, "run"),
        ("never", None, False, True, "run"),
        ("on-request", None, False, False, "ask"),
        ("untrusted", None, True, False, "run"),
        ("on-request", "prompt", True, False, "ask"),
        ("never", "prompt", True, False, "refuse"),
    ],
)
def test_mcp_approval_decision(
    policy: Any, mode: Any, read_only: bool, full: bool, expected: str
) -> None:
    assert (
        mcp_call_approval(policy=policy, mode=mode, read_only=read_only, full_access=full)
        == expected
    )


def test_mcp_result_shapes() -> None:
    structured = types.CallToolResult(
        content=[types.TextContent(type="text", text="{}")], structuredContent={"a": 1}
    )
    assert result_output(structured, 0.5) == 'Wall time: 0.5000 seconds\nOutput:\n{"a":1}'
    failed = types.CallToolResult(
        content=[types.TextContent(type="text", text="bad")], isError=True
    )
    assert result_output(failed, 0) == [
        {"type": "input_text", "text": "Wall time: 0.0000 seconds\nOutput:"},
        {"type": "input_text", "text": "bad"},
    ]
    assert error_output("gone", 0)[1] == {"type": "input_text", "text": "gone"}
    cut = truncate_text("a" * 1000, 100)
    assert len(cut) < 200 and "900 characters truncated" in cut


CONFIG = """\
# my settings
model = "o3"  # the model

# servers
[mcp_servers.keep]
command = "keep-me"  # important
args = ["--x"]
"""


def codex(codex_bin: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(codex_bin), "mcp", *args], capture_output=True, text=True, timeout=30
    )


def test_codex_mcp_subcommands_round_trip_config_keeping_comments(
    codex_bin: Path, codex_home: Path
) -> None:
    path = codex_home / "config.toml"
    path.write_text(CONFIG)
    added = codex(codex_bin, "add", "docs", "--env", "TOKEN=s3cret", "--", "npx", "-y", "docs-mcp")
    assert (added.returncode, added.stdout) == (0, "Added global MCP server 'docs'.\n")
    web = codex(
        codex_bin, "add", "web", "--url", "http://127.0.0.1:9/mcp", "--bearer-token-env-var", "TOK"
    )
    assert web.returncode == 0
    listing = codex(codex_bin, "list")
    assert listing.stdout.splitlines() == [
        "Name  Command  Args         Env          Cwd  Status   Auth       ",
        "docs  npx      -y docs-mcp  TOKEN=*****  -    enabled  Unsupported",
        "keep  keep-me  --x          -            -    enabled  Unsupported",
        "",
        "Name  Url                     Bearer Token Env Var  Status   Auth        ",
        "web   http://127.0.0.1:9/mcp  TOK                   enabled  Bearer token",
    ]
    as_json = json.loads(codex(codex_bin, "list", "--json").stdout)
    assert [e["name"] for e in as_json] == ["docs", "keep", "web"]
    assert as_json[0]["transport"] == {
        "type": "stdio",
        "command": "npx",
        "args": ["-y", "docs-mcp"],
        "env": {"TOKEN": "s3cret"},
        "env_vars": [],
        "cwd": None,
    }
    assert as_json[2]["auth_status"] == "bearer_token"
    got = codex(codex_bin, "get", "docs")
    assert got.stdout.splitlines() == [
        "docs",
        "  enabled: true",
        "  transport: stdio",
        "  command: npx",
        "  args: -y docs-mcp",
        "  cwd: -",
        "  env: TOKEN=*****",
        "  remove: codex mcp remove docs",
    ]
    assert codex(codex_bin, "get", "nope").returncode == 1
    removed = codex(codex_bin, "remove", "docs")
    assert removed.stdout == "Removed global MCP server 'docs'.\n"
    assert codex(codex_bin, "remove", "web").returncode == 0
    assert path.read_text() == CONFIG + "\n"  # only a blank line left where the tables were
    assert codex(codex_bin, "add", "bad name", "--", "x").returncode == 1
    assert codex(codex_bin, "add", "x").returncode == 2
