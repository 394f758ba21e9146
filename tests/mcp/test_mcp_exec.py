"""MCP servers through `codex exec --json` and the scripted model server (real SDK servers)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import (
    namespace_call,
    outputs_by_call,
    run_exec,
    stdio_entry,
    write_config,
)
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn

pytestmark = pytest.mark.e2e


def mcp_items(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        line["item"]
        for line in lines
        if line["type"] == "item.completed" and line["item"]["type"] == "mcp_tool_call"
    ]


def tool_of(body: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((t for t in body.get("tools", []) if t.get("name") == name), None)


def test_mcp_tools_listed_in_first_request_as_a_namespace(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(codex_home, stdio_entry("probe"))
    model_server.add(turn(message("done")))
    done, _ = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    namespace = tool_of(model_server.requests[0].body, "mcp__probe")
    assert namespace is not None
    assert {k: v for k, v in namespace.items() if k != "tools"} == {
        "type": "namespace",
        "name": "mcp__probe",
        "description": "Tools in the mcp__probe namespace.",
    }
    names = [t["name"] for t in namespace["tools"]]
    assert names == ["big", "crash", "echo", "fail", "hang", "picture", "weather"]
    echo = namespace["tools"][names.index("echo")]
    assert echo == {
        "type": "function",
        "name": "echo",
        "description": "Echo the text back.",
        "strict": False,
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "what to echo"}},
            "required": ["text"],
        },
    }
    fail = namespace["tools"][names.index("fail")]
    assert fail["parameters"] == {"type": "object", "properties": {"reason": {"type": "string"}}}


def test_mcp_calls_paired_with_results_and_exec_items(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(codex_home, stdio_entry("probe", 'default_tools_approval_mode = "approve"'))
    model_server.add(
        namespace_call("mcp__probe", "echo", {"text": "hi"}, "c1"),
        namespace_call("mcp__probe", "weather", {"city": "Paris"}, "c2"),
        namespace_call("mcp__probe", "fail", {}, "c3"),
        namespace_call("mcp__probe", "picture", {}, "c4"),
        turn(message("done")),
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    model_server.check_pairing()
    out = outputs_by_call(model_server)
    assert out["c1"].split("\n", 1)[1] == 'Output:\n{"result":"echo: hi"}'
    assert out["c1"].startswith("Wall time: ")
    assert out["c2"].endswith('Output:\n{"city":"Paris","temp":21.5}')
    assert out["c3"][1:] == [{"type": "input_text", "text": "Error executing tool fail: boom"}]
    assert out["c4"][1]["type"] == "input_text" and out["c4"][1]["text"] == "here"
    assert out["c4"][2]["type"] == "input_image"
    assert out["c4"][2]["image_url"].startswith("data:image/png;base64,iVBOR")
    items = mcp_items(lines)
    assert [(i["tool"], i["status"]) for i in items] == [
        ("echo", "completed"),
        ("weather", "completed"),
        ("fail", "failed"),
        ("picture", "completed"),
    ]
    assert items[0] == {
        "id": items[0]["id"],
        "type": "mcp_tool_call",
        "server": "probe",
        "tool": "echo",
        "arguments": {"text": "hi"},
        "result": {
            "content": [{"type": "text", "text": "echo: hi"}],
            "structured_content": {"result": "echo: hi"},
        },
        "error": None,
        "status": "completed",
    }
    assert items[2]["error"] is None
    started = [line for line in lines if line["type"] == "item.started"]
    assert started[0]["item"]["status"] == "in_progress"


def test_mcp_unannotated_tool_refused_in_exec_unless_approved(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(codex_home, stdio_entry("probe"))
    model_server.add(
        namespace_call("mcp__probe", "weather", {"city": "Paris"}, "c1"), turn(message("done"))
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    refusal = "MCP tool call requires approval, but approval policy is never"
    assert outputs_by_call(model_server)["c1"][1:] == [{"type": "input_text", "text": refusal}]
    assert mcp_items(lines)[0]["error"] == {"message": refusal}
    assert mcp_items(lines)[0]["status"] == "failed"


def test_mcp_bypass_flag_runs_unannotated_tool(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(codex_home, stdio_entry("probe"))
    model_server.add(
        namespace_call("mcp__probe", "weather", {"city": "Oslo"}, "c1"), turn(message("done"))
    )
    done, lines = run_exec(
        codex_bin, model_server, tmp_path, "--dangerously-bypass-approvals-and-sandbox"
    )
    assert done.returncode == 0, done.stderr
    assert mcp_items(lines)[0]["status"] == "completed"


def test_mcp_streamable_http_server(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path, http_server: str
) -> None:
    write_config(codex_home, f'[mcp_servers.web]\nurl = "{http_server}"\n')
    model_server.add(
        namespace_call("mcp__web", "echo", {"text": "over http"}, "c1"), turn(message("done"))
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    assert tool_of(model_server.requests[0].body, "mcp__web") is not None
    assert outputs_by_call(model_server)["c1"].endswith('{"result":"echo: over http"}')
    assert mcp_items(lines)[0]["server"] == "web"


def test_mcp_chat_provider_gets_flat_names(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(codex_home, stdio_entry("probe"))
    model_server.add(
        turn(function_call("mcp__probe__echo", {"text": "flat"}, call_id="c1")),
        turn(message("done")),
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path, wire="chat")
    assert done.returncode == 0, done.stderr
    names = [t["function"]["name"] for t in model_server.requests[0].body["tools"]]
    assert "mcp__probe__echo" in names and "mcp__probe__weather" in names
    tool_msgs = [m for m in model_server.requests[1].body["messages"] if m["role"] == "tool"]
    assert tool_msgs[0]["tool_call_id"] == "c1"
    assert tool_msgs[0]["content"].endswith('{"result":"echo: flat"}')
    assert mcp_items(lines)[0]["tool"] == "echo"


def test_mcp_tool_timeout_and_tool_that_never_answers(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(codex_home, stdio_entry("probe", "tool_timeout_sec = 1"))
    model_server.add(
        namespace_call("mcp__probe", "hang", {}, "c1"),
        namespace_call("mcp__probe", "echo", {"text": "still here"}, "c2"),
        turn(message("done")),
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    out = outputs_by_call(model_server)
    assert out["c1"][1]["text"] == (
        "tool call error: tool call failed for `probe/hang`: timed out awaiting tools/call after 1s"
    )
    assert out["c2"].endswith('{"result":"echo: still here"}')
    assert mcp_items(lines)[0]["status"] == "failed"


def test_mcp_server_crash_mid_session_turns_calls_into_errors(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(codex_home, stdio_entry("probe"))
    model_server.add(
        namespace_call("mcp__probe", "crash", {}, "c1"),
        namespace_call("mcp__probe", "echo", {"text": "anyone?"}, "c2"),
        turn(message("done")),
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    model_server.check_pairing()
    out = outputs_by_call(model_server)
    assert out["c1"][1]["text"].startswith("tool call error: tool call failed for `probe/crash`")
    assert out["c2"][1]["text"].startswith("tool call error: tool call failed for `probe/echo`")
    assert [i["status"] for i in mcp_items(lines)] == ["failed", "failed"]


def test_mcp_enabled_and_disabled_tool_filters(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(
        codex_home,
        stdio_entry("a", 'enabled_tools = ["echo", "weather"]', 'disabled_tools = ["weather"]')
        + stdio_entry("off", "enabled = false", required=False),
    )
    model_server.add(turn(message("done")))
    done, _ = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    body = model_server.requests[0].body
    namespace = tool_of(body, "mcp__a")
    assert namespace is not None and [t["name"] for t in namespace["tools"]] == ["echo"]
    assert tool_of(body, "mcp__off") is None


def test_mcp_required_server_down_fails_clearly(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(
        codex_home, '[mcp_servers.needed]\ncommand = "no-such-mcp-server"\nrequired = true\n'
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 1
    failed = [line for line in lines if line["type"] == "turn.failed"]
    assert failed[0]["error"]["message"] == (
        "required MCP server 'needed' failed to start: command not found: no-such-mcp-server; "
        "fix [mcp_servers.needed] in config.toml or set required = false"
    )
    assert model_server.requests == []


def test_mcp_garbage_server_is_a_warning_not_a_stop(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(
        codex_home,
        stdio_entry("noise", "startup_timeout_sec = 0.5", mode="garbage", required=False)
        + stdio_entry("probe"),
    )
    model_server.add(turn(message("done")))
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    body = model_server.requests[0].body
    assert tool_of(body, "mcp__probe") is not None and tool_of(body, "mcp__noise") is None
    errors = [
        line["item"]["message"]
        for line in lines
        if line["type"] == "item.completed" and line["item"]["type"] == "error"
    ]
    assert any(e.startswith("MCP server 'noise' failed to start: ") for e in errors), errors


def test_mcp_ten_megabyte_result_is_truncated_with_a_note(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(codex_home, stdio_entry("probe"))
    model_server.add(namespace_call("mcp__probe", "big", {}, "c1"), turn(message("done")))
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    text = outputs_by_call(model_server)["c1"][1]["text"]
    assert len(text) < 300_000
    assert text.startswith("xxx") and text.endswith("yyy")
    assert "characters truncated: the tool result was 10000006 characters" in text
    assert len(str(mcp_items(lines)[0]["result"])) < 300_000


def test_mcp_servers_end_with_the_session(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    pid_file = tmp_path / "pids"
    write_config(
        codex_home,
        stdio_entry("probe", f'env = {{ MCP_TEST_PID_FILE = "{pid_file}" }}'),
    )
    model_server.add(turn(message("done")))
    done, _ = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    pids = [int(p) for p in pid_file.read_text().split()]
    assert pids
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def reports(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What each `report` call of the run said (its JSON text)."""
    return [
        json.loads(item["result"]["content"][0]["text"])
        for item in mcp_items(lines)
        if item["tool"] == "report"
    ]


def test_mcp_stdio_server_gets_its_command_args_env_env_vars_and_cwd(
    codex_bin: Path,
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server_dir = tmp_path / "server-dir"
    server_dir.mkdir()
    monkeypatch.setenv("MCP_TEST_PASSED", "through env_vars")
    monkeypatch.setenv("MCP_TEST_KEPT_OUT", "not listed")
    write_config(
        codex_home,
        stdio_entry(
            "probe",
            'env = { MCP_TEST_SET = "from env" }',
            'env_vars = ["MCP_TEST_PASSED"]',
            f"cwd = {json.dumps(str(server_dir))}",
            server_args=["--report"],
        ),
    )
    names = ["MCP_TEST_SET", "MCP_TEST_PASSED", "MCP_TEST_KEPT_OUT"]
    model_server.add(
        namespace_call("mcp__probe", "report", {"env": names}, "c1"), turn(message("done"))
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    assert reports(lines) == [
        {
            "argv": ["stdio", "--report"],
            "cwd": str(server_dir),
            "env": {
                "MCP_TEST_SET": "from env",
                "MCP_TEST_PASSED": "through env_vars",
                "MCP_TEST_KEPT_OUT": None,
            },
            "headers": {},
        }
    ]


def test_mcp_http_server_gets_bearer_token_and_headers(
    codex_bin: Path,
    model_server: ModelServer,
    codex_home: Path,
    tmp_path: Path,
    http_server: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MCP_TEST_TOKEN", "tok-123")
    monkeypatch.setenv("MCP_TEST_API_KEY", "key-456")
    monkeypatch.delenv("MCP_TEST_UNSET", raising=False)
    write_config(
        codex_home,
        f'[mcp_servers.web]\nurl = "{http_server}"\n'
        'bearer_token_env_var = "MCP_TEST_TOKEN"\n'
        'http_headers = { "X-Team" = "core" }\n'
        'env_http_headers = { "X-Api-Key" = "MCP_TEST_API_KEY", "X-Unset" = "MCP_TEST_UNSET" }\n',
    )
    headers = ["authorization", "x-team", "x-api-key", "x-unset"]
    model_server.add(
        namespace_call("mcp__web", "report", {"headers": headers}, "c1"), turn(message("done"))
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    assert reports(lines)[0]["headers"] == {
        "authorization": "Bearer tok-123",
        "x-team": "core",
        "x-api-key": "key-456",
        "x-unset": None,
    }


def test_mcp_slow_server_past_its_startup_timeout_is_a_warning_without_tools(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    slow = 'env = { MCP_TEST_START_DELAY = "3" }'
    write_config(
        codex_home,
        stdio_entry("slow_ms", slow, "startup_timeout_ms = 400", required=False)
        + stdio_entry("slow_sec", slow, "startup_timeout_sec = 0.6", required=False),
    )
    model_server.add(turn(message("done")))
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    body = model_server.requests[0].body
    assert tool_of(body, "mcp__slow_ms") is None and tool_of(body, "mcp__slow_sec") is None
    # reported as soon as the timeout passes, not after the child is closed (seconds later)
    errors = sorted(
        line["item"]["message"].split(";")[0]
        for line in lines
        if line["type"] == "item.completed" and line["item"]["type"] == "error"
    )
    assert errors == [
        "MCP server 'slow_ms' failed to start: timed out after 0.4s starting up",
        "MCP server 'slow_sec' failed to start: timed out after 0.6s starting up",
    ]


def test_mcp_server_past_its_startup_timeout_does_not_hold_up_exec_at_its_end(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    """A server still starting (not reading its stdin) when its startup timeout passed is
    ended at once: `codex exec` exits right after its answer, not seconds later."""
    slow = 'env = { MCP_TEST_START_DELAY = "30" }'
    write_config(codex_home, stdio_entry("slow", slow, "startup_timeout_sec = 0.5", required=False))
    model_server.add(turn(message("done")))
    argv = [str(codex_bin), "exec", "--skip-git-repo-check", "--json", *model_server.cli_flags()]
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    process = subprocess.Popen(
        [*argv, "hi"], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE
    )
    assert process.stdout is not None
    completed_at = None
    for line in process.stdout:
        if json.loads(line)["type"] == "turn.completed":
            completed_at = time.monotonic()
    assert process.wait(timeout=60) == 0 and completed_at is not None
    # It used to wait ~4 s for the server to read its closed stdin, then for SIGTERM.
    assert time.monotonic() - completed_at < 1.5


def test_mcp_per_tool_approval_mode_overrides_the_default(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(
        codex_home,
        stdio_entry(
            "probe",
            "[mcp_servers.probe.tools.weather]",
            'approval_mode = "approve"',
            "[mcp_servers.probe.tools.echo]",
            'approval_mode = "prompt"',
        ),
    )
    model_server.add(
        namespace_call("mcp__probe", "weather", {"city": "Rome"}, "c1"),
        namespace_call("mcp__probe", "echo", {"text": "ask first"}, "c2"),
        turn(message("done")),
    )
    done, lines = run_exec(codex_bin, model_server, tmp_path)
    assert done.returncode == 0, done.stderr
    out = outputs_by_call(model_server)
    # weather has no read-only annotation: refused in exec unless approved (test above)
    assert out["c1"].endswith('Output:\n{"city":"Rome","temp":21.5}')
    # echo is read-only and runs by default; "prompt" makes it ask, which exec cannot
    refusal = "MCP tool call requires approval, but approval policy is never"
    assert out["c2"][1:] == [{"type": "input_text", "text": refusal}]
    assert [(i["tool"], i["status"]) for i in mcp_items(lines)] == [
        ("weather", "completed"),
        ("echo", "failed"),
    ]
