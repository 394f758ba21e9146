"""Attacks on the light models (issue 29): nothing the fast path accepts is something pydantic
refused or would have built differently.

The attacker controls config.toml (a project's or a profile's), a rollout on disk or an
app-server client's JSON. Each input below is judged twice: by the light path
(`codex_core.lite`, fast checks first) and by pydantic alone (the class's twin). A value the
light path keeps must be pydantic's value, with the same dump and fields set; whatever pydantic
refuses must be refused with pydantic's `ValidationError` (never `Bail`, `TypeError`,
`KeyError` or `RecursionError`, which callers catching only `lite.ValidationError` would turn
into a traceback). The config.toml messages were checked side by side against the pydantic
version of codex (before issue 29): they are that version's lines.
"""

from __future__ import annotations

import copy
import json
import math
import os
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from codex_core import lite
from codex_core.config.errors import ConfigError
from codex_core.config.loader import load_config
from codex_core.config.schema import ConfigToml
from codex_core.lite.twin import twin
from codex_core.policies import (
    DEFAULT_GRANULAR,
    SANDBOX_POLICY,
    DangerFullAccessPolicy,
    GranularApproval,
    ReadOnlyPolicy,
    WorkspaceWritePolicy,
    sandbox_policy_from_wire,
)
from codex_core.protocol import parse_event_msg
from codex_core.protocol.items import parse_response_item
from codex_core.protocol.ops import OP


class Text(str):
    """A str subclass: pydantic's strict mode decides, never the fast path."""


class Number(int):
    """An int subclass."""


class Table(dict[str, Any]):
    """A dict subclass (a mapping that is not exactly a dict)."""


class Items(list[Any]):
    """A list subclass."""


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """("ok", (class name, dump, fields set)) or ("refused", error types and locations); any
    other exception propagates and fails the test."""
    try:
        value = call()
    except lite.ValidationError as err:
        return "refused", [(e["type"], e["loc"][:1]) for e in err.errors()]
    return "ok", (type(value).__name__, repr(value.model_dump()), sorted(value.model_fields_set))


def assert_as_pydantic(light: Callable[[], Any], pure: Callable[[], Any]) -> None:
    """The light path keeps only what pydantic keeps, as pydantic keeps it."""
    got, want = outcome(light), outcome(pure)
    assert got[0] == want[0], (got, want)
    if got[0] == "ok":
        assert got == want


# ------------------------------------------------------------------ sandbox policies

ROOTS_WW = {"mode": "workspace-write"}
POLICY_INPUTS: list[Any] = [
    {"mode": Text("danger-full-access")},
    {"mode": "danger-full-access "},
    {"mode": "DANGER-FULL-ACCESS"},
    {"mode": ["danger-full-access"]},
    {"mode": None},
    {"mode": True},
    {"mode": 1},
    {"type": "danger-full-access"},
    {"mode": "read-only", "type": "danger-full-access"},
    {"mode": "read-only", "writable_roots": ["/"], "network_access": True},
    {**ROOTS_WW, "writable_roots": "/"},
    {**ROOTS_WW, "writable_roots": [Text("/")]},
    {**ROOTS_WW, "writable_roots": ("/",)},
    {**ROOTS_WW, "writable_roots": Items(["/"])},
    {**ROOTS_WW, "writable_roots": ["/", 1]},
    {**ROOTS_WW, "writable_roots": [b"/"]},
    {**ROOTS_WW, "writable_roots": {"/": True}},
    {**ROOTS_WW, "network_access": 1},
    {**ROOTS_WW, "network_access": Number(1)},
    {**ROOTS_WW, "network_access": "true"},
    {**ROOTS_WW, "network_access": 1.0},
    {**ROOTS_WW, "network_access": math.nan},
    {**ROOTS_WW, "network_access": None},
    {**ROOTS_WW, "exclude_slash_tmp": 0},
    {**ROOTS_WW, "exclude_tmpdir_env_var": 2**70},
    {**ROOTS_WW, 1: "x"},
    {**ROOTS_WW, "writable_roots": ["/"], "network_access": True, "unknown": {"x": 1}},
    Table(mode="danger-full-access"),
    Table(mode="workspace-write", writable_roots=["/"]),
    [{"mode": "read-only"}],
    "danger-full-access",
    None,
    ReadOnlyPolicy(),
    DangerFullAccessPolicy(),
    GranularApproval(sandbox_approval=True, rules=True, mcp_elicitations=True),
]


@pytest.mark.parametrize("data", POLICY_INPUTS, ids=repr)
def test_lite_attack_sandbox_policy_union_as_pydantic(data: Any) -> None:
    from pydantic import TypeAdapter

    from codex_core.lite.twin import rewrite
    from codex_core.policies import SandboxPolicy

    pure = TypeAdapter(rewrite(SandboxPolicy))
    assert_as_pydantic(
        lambda: SANDBOX_POLICY.validate_python(data), lambda: pure.validate_python(data)
    )


@pytest.mark.parametrize("data", [d for d in POLICY_INPUTS if type(d) is dict], ids=repr)
def test_lite_attack_workspace_policy_as_pydantic(data: dict[Any, Any]) -> None:
    fields = {k: v for k, v in data.items() if k not in ("mode", "type")}
    made = twin(WorkspaceWritePolicy)
    assert_as_pydantic(
        lambda: WorkspaceWritePolicy.model_validate(fields),
        lambda: made.model_validate(fields),
    )
    if all(type(k) is str for k in fields):
        assert_as_pydantic(lambda: WorkspaceWritePolicy(**fields), lambda: made(**fields))


@pytest.mark.parametrize(
    "wire",
    [
        {"type": "workspace-write", "writable_roots": "/"},
        {"type": "workspace-write", "writable_roots": [1]},
        {"type": "danger-full-access", "mode": "read-only"},
        {"type": Text("danger-full-access")},
        {"mode": "workspace-write", "network_access": "yes"},
        {"type": "workspace-write", "writable_roots": ["/" * 4096], "network_access": 1.0},
        {"type": None, "mode": "danger-full-access"},
    ],
    ids=repr,
)
def test_lite_attack_recorded_sandbox_policy_never_raises(wire: dict[str, Any]) -> None:
    """A rollout's `turn_context.sandbox_policy` (resume): a policy pydantic keeps, or None."""
    policy = sandbox_policy_from_wire(wire)
    if policy is not None:
        fields = {k: v for k, v in wire.items() if k not in ("type", "mode")}
        mode = wire.get("type", wire.get("mode"))
        pure = twin(type(policy)).model_validate({**fields, "mode": mode})
        assert policy.model_dump() == pure.model_dump()


# ------------------------------------------------------------------ granular approval

GRANULAR_OK = {"sandbox_approval": True, "rules": False, "mcp_elicitations": True}
GRANULAR_INPUTS: list[Any] = [
    GRANULAR_OK,
    {**GRANULAR_OK, "sandbox_approval": 1},
    {**GRANULAR_OK, "sandbox_approval": 0},
    {**GRANULAR_OK, "sandbox_approval": "true"},
    {**GRANULAR_OK, "sandbox_approval": 1.0},
    {**GRANULAR_OK, "sandbox_approval": None},
    {**GRANULAR_OK, "rules": Number(0)},
    {**GRANULAR_OK, "skill_approval": "yes"},
    {**GRANULAR_OK, "request_permissions": [True]},
    {**GRANULAR_OK, "unknown": 1, "other": {"a": 1}},
    {"sandbox_approval": True},
    Table(GRANULAR_OK),
    {},
    [],
    True,
    "granular",
]


@pytest.mark.parametrize("data", GRANULAR_INPUTS, ids=repr)
def test_lite_attack_granular_strict_as_pydantic(data: Any) -> None:
    made = twin(GranularApproval)
    assert_as_pydantic(
        lambda: GranularApproval.model_validate(data), lambda: made.model_validate(data)
    )
    if type(data) is dict:
        assert_as_pydantic(lambda: GranularApproval(**data), lambda: made(**data))


def test_lite_attack_granular_is_frozen_and_hashes_by_value() -> None:
    settings = GranularApproval.model_validate(GRANULAR_OK)
    with pytest.raises((TypeError, ValueError)):
        settings.sandbox_approval = False
    with pytest.raises((TypeError, ValueError)):
        settings.bogus = True  # type: ignore[attr-defined]
    assert settings.sandbox_approval is True
    assert not hasattr(settings, "bogus")
    same = GranularApproval(**GRANULAR_OK)
    assert settings == same and hash(settings) == hash(same)
    validated_default = GranularApproval.model_validate(
        {name: getattr(DEFAULT_GRANULAR, name) for name in GranularApproval.model_fields}
    )
    assert validated_default == DEFAULT_GRANULAR
    assert hash(validated_default) == hash(DEFAULT_GRANULAR)
    changed = settings.model_copy(update={"rules": True})
    assert (settings.rules, changed.rules) == (False, True)
    assert settings != changed
    # A policy of another class with equal fields is not equal (approvals never mix kinds).
    assert ReadOnlyPolicy() != DangerFullAccessPolicy()
    with pytest.raises(TypeError):
        hash(WorkspaceWritePolicy())


# ------------------------------------------------------------------ aliasing and defaults


def test_lite_attack_inputs_are_copied_not_shared() -> None:
    """A list given to a constructor or validator and changed afterwards leaves the model as
    validated (pydantic copies it); defaults are never shared between instances."""
    roots = ["/work"]
    by_init = WorkspaceWritePolicy(writable_roots=roots)
    data = {"mode": "workspace-write", "writable_roots": roots}
    by_union = SANDBOX_POLICY.validate_python(data)
    by_validate = WorkspaceWritePolicy.model_validate({"writable_roots": roots})
    table: dict[str, Any] = {"sandbox_workspace_write": {"writable_roots": roots}}
    config = ConfigToml.model_validate(table, strict=True)
    roots.append("/")
    table["sandbox_workspace_write"]["network_access"] = True
    assert by_init.writable_roots == ["/work"]
    assert isinstance(by_union, WorkspaceWritePolicy) and by_union.writable_roots == ["/work"]
    assert by_validate.writable_roots == ["/work"]
    assert config.sandbox_workspace_write.writable_roots == ["/work"]
    assert config.sandbox_workspace_write.network_access is False

    first, second = WorkspaceWritePolicy(), WorkspaceWritePolicy()
    first.writable_roots.append("/")
    assert second.writable_roots == [] and WorkspaceWritePolicy().writable_roots == []
    one, two = ConfigToml.model_validate({}, strict=True), ConfigToml.model_validate({})
    one.sandbox_workspace_write.writable_roots.append("/")
    one.mcp_servers["x"] = one.mcp_servers.get("x")  # type: ignore[assignment]
    assert two.sandbox_workspace_write.writable_roots == [] and two.mcp_servers == {}
    assert ConfigToml.model_validate({}).sandbox_workspace_write.writable_roots == []

    deep = copy.deepcopy(by_init)
    deep.writable_roots.append("/etc")
    assert by_init.writable_roots == ["/work"]


# ------------------------------------------------------------------ config.toml (strict)

NOW = datetime(1979, 5, 27, 7, 32, tzinfo=UTC)
CONFIG_INPUTS: list[dict[str, Any]] = [
    {"sandbox_mode": "danger-full-access"},
    {"sandbox_mode": Text("danger-full-access")},
    {"sandbox_mode": 1},
    {"sandbox_workspace_write": {"writable_roots": "/"}},
    {"sandbox_workspace_write": {"writable_roots": ["/", NOW]}},
    {"sandbox_workspace_write": {"network_access": 1}},
    {"sandbox_workspace_write": {"network_access": math.inf}},
    {"sandbox_workspace_write": Table(network_access=True)},
    {"sandbox_workspace_write": {"network_access": True, "mode": "danger-full-access"}},
    {"approval_policy": "never"},
    {"approval_policy": Text("never")},
    {"approval_policy": {"granular": {**GRANULAR_OK}}},
    {"approval_policy": {"granular": {**GRANULAR_OK, "rules": 1}}},
    {"approval_policy": {"granular": {**GRANULAR_OK}, "never": True}},
    {"approval_policy": {"granular": Table(GRANULAR_OK)}},
    {"mcp_servers": {"x": {"command": "sh", "args": ["-c", "id"]}}},
    {"mcp_servers": {"x": {"command": ["sh"]}}},
    {"mcp_servers": {"x": {"command": "sh", "url": "http://127.0.0.1:1/"}}},
    {"mcp_servers": {"x": {"args": ["a"]}}},
    {"mcp_servers": {"x": {"command": "sh", "startup_timeout_sec": math.nan}}},
    {"mcp_servers": {"x": {"command": "sh", "tool_timeout_sec": math.inf}}},
    {"mcp_servers": {"x": {"command": "sh", "startup_timeout_ms": True}}},
    {"mcp_servers": {"x": {"command": "sh", "env": {"A": 1}}}},
    {"mcp_servers": {"x": {"command": "sh", "tools": {"t": {"approval_mode": "approve"}}}}},
    {"mcp_servers": {"x": {"command": "sh", "tools": {"t": {"approval_mode": 1}}}}},
    {"model_providers": {"x": {"name": "x", "request_max_retries": True}}},
    {"model_providers": {"x": {"name": "x", "request_max_retries": 2**80}}},
    {"model_providers": {"x": {"name": "x", "stream_idle_timeout_ms": 1.0}}},
    {"model_providers": {"x": {"name": "x", "http_headers": {"A": 1}}}},
    {"model_providers": {"x": {"name": Text("x")}}},
    {"history": {"max_bytes": -1}},
    {"history": {"max_bytes": 2**64}},
    {"model_context_window": NOW},
    {"model_context_window": 0},
    {"features": {"x": 1}},
    {"features": {"x": True}},
    {"tui": {"notifications": ["agent-turn-complete", 1]}},
    {"tui": {"notifications": True}},
    {"projects": {"/": {"trust_level": "trusted"}}},
    {"projects": {"/": {"trust_level": 1}}},
    {"skills": {"bundled": {"enabled": 1}}, "hooks": {"x": [NOW]}},
    {"model_reasoning_effort": ""},
    {"notify": "notify-send"},
]


@pytest.mark.parametrize("data", CONFIG_INPUTS, ids=repr)
def test_lite_attack_config_toml_strict_as_pydantic(data: dict[str, Any]) -> None:
    made = twin(ConfigToml)
    assert_as_pydantic(
        lambda: ConfigToml.model_validate(data, strict=True),
        lambda: made.model_validate(data, strict=True),
    )


# The pydantic version's lines (checked side by side with codex before issue 29).
CONFIG_REFUSED: dict[str, tuple[str, str]] = {
    "mode-int": ("sandbox_mode = 1\n", "1: sandbox_mode = 1 is not one of {modes}"),
    "mode-space": (
        'sandbox_mode = "danger-full-access "\n',
        '1: sandbox_mode = "danger-full-access " is not one of {modes}',
    ),
    "mode-table": (
        'sandbox_mode = { mode = "danger-full-access" }\n',
        '1: sandbox_mode = { mode = "danger-full-access" } is not one of {modes}',
    ),
    "roots-string": (
        '[sandbox_workspace_write]\nwritable_roots = "/"\n',
        '2: sandbox_workspace_write.writable_roots = "/" is not an array',
    ),
    "roots-item": (
        '[sandbox_workspace_write]\nwritable_roots = ["/tmp", 1]\n',
        "2: sandbox_workspace_write.writable_roots[1] = 1 is not a string",
    ),
    "roots-table": (
        '[sandbox_workspace_write]\nwritable_roots = [{ path = "/" }]\n',
        '2: sandbox_workspace_write.writable_roots[0] = { path = "/" } is not a string',
    ),
    "network-int": (
        "[sandbox_workspace_write]\nnetwork_access = 1\n",
        "2: sandbox_workspace_write.network_access = 1 is not a boolean",
    ),
    "network-string": (
        '[sandbox_workspace_write]\nnetwork_access = "true"\n',
        '2: sandbox_workspace_write.network_access = "true" is not a boolean',
    ),
    "approval-case": (
        'approval_policy = "Never"\n',
        '1: approval_policy = "Never" is not one of {approvals}',
    ),
    "approval-bool": (
        "approval_policy = true\n",
        "1: approval_policy = true is not one of {approvals}",
    ),
    "approval-granular-name": (
        'approval_policy = "granular"\n',
        '1: approval_policy = "granular" is not one of {approvals}',
    ),
    "mcp-command-list": (
        '[mcp_servers.x]\ncommand = ["sh", "-c", "id"]\n',
        '2: mcp_servers.x.command = ["sh", "-c", "id"] is not a string',
    ),
    "mcp-nan": (
        '[mcp_servers.x]\ncommand = "x"\nstartup_timeout_sec = nan\n',
        "3: mcp_servers.x.startup_timeout_sec = nan is invalid (greater than 0)",
    ),
    "mcp-command-and-url": (
        '[mcp_servers.x]\ncommand = "x"\nurl = "http://127.0.0.1:1/mcp"\n',
        '2: mcp_servers.x.command = "x" is invalid (not allowed together with url; keep one of them)',
    ),
    "mcp-neither": (
        '[mcp_servers.x]\nargs = ["a"]\n',
        "1: mcp_servers.x.command is required; add it to [mcp_servers.x]",
    ),
    "mcp-enabled-string": (
        '[mcp_servers.x]\ncommand = "x"\nenabled = "false"\n',
        '3: mcp_servers.x.enabled = "false" is not a boolean',
    ),
    "provider-retries-bool": (
        '[model_providers.x]\nname = "x"\nrequest_max_retries = true\n',
        "3: model_providers.x.request_max_retries = true is not an integer",
    ),
    "provider-headers": (
        '[model_providers.x]\nname = "x"\nhttp_headers = { A = 1 }\n',
        "3: model_providers.x.http_headers.A = 1 is not a string",
    ),
    "history-negative": (
        "[history]\nmax_bytes = -1\n",
        "2: history.max_bytes = -1 is invalid (greater than or equal to 0)",
    ),
    "context-datetime": (
        "model_context_window = 1979-05-27T07:32:00Z\n",
        "1: model_context_window = 1979-05-27 07:32:00+00:00 is not an integer",
    ),
    "env-set-int": (
        "[shell_environment_policy]\nset = { A = 1 }\n",
        "2: shell_environment_policy.set.A = 1 is not a string",
    ),
    "features-int": ("[features]\nweb_search = 1\n", "2: features.web_search = 1 is not a boolean"),
    "notifications-mixed": (
        '[tui]\nnotifications = ["agent-turn-complete", 1]\n',
        '2: tui.notifications.bool = ["agent-turn-complete", 1] is not a boolean',
    ),
    "trust-int": (
        '[projects."/tmp"]\ntrust_level = 1\n',
        '2: projects."/tmp".trust_level = 1 is not "trusted" or "untrusted"',
    ),
}
MODES = "read-only, workspace-write, danger-full-access"
APPROVALS = "untrusted, on-failure, on-request, never"


def expected_line(home: Path, tail: str) -> str:
    return f"{home / 'config.toml'}:" + tail.replace("{modes}", MODES).replace(
        "{approvals}", APPROVALS
    )


@pytest.mark.parametrize("name", sorted(CONFIG_REFUSED))
def test_lite_attack_config_refused_with_pydantic_line(codex_home: Path, name: str) -> None:
    text, tail = CONFIG_REFUSED[name]
    (codex_home / "config.toml").write_text(text)
    with pytest.raises(ConfigError) as refused:
        load_config(codex_home=codex_home, environ={})
    assert str(refused.value) == expected_line(codex_home, tail)


def run_codex(
    codex_bin: Path, home: Path, cwd: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    """`codex exec --skip-git-repo-check ARGS` with its own CODEX_HOME (ARGS end with the
    prompt)."""
    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-test"}
    return subprocess.run(
        [str(codex_bin), "exec", "--skip-git-repo-check", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.e2e
@pytest.mark.parametrize("name", ["roots-item", "network-int", "mcp-command-list"])
def test_lite_attack_config_refused_by_the_console_script(
    codex_bin: Path, codex_home: Path, tmp_path: Path, name: str
) -> None:
    text, tail = CONFIG_REFUSED[name]
    (codex_home / "config.toml").write_text(text)
    done = run_codex(codex_bin, codex_home, tmp_path, "hi")
    assert done.returncode == 1
    assert done.stderr == f"codex: {expected_line(codex_home, tail)}\n"


@pytest.mark.e2e
def test_lite_attack_profile_refused_by_the_console_script(
    codex_bin: Path, codex_home: Path, tmp_path: Path
) -> None:
    """A profile file's bad sandbox mode: the pydantic version's line."""
    (codex_home / "p.config.toml").write_text("sandbox_mode = 2\n")
    done = run_codex(codex_bin, codex_home, tmp_path, "--profile", "p", "hi")
    assert done.returncode == 1
    assert done.stderr == (
        f"codex: {codex_home / 'config.toml'}: sandbox_mode = 2 is not one of {MODES}\n"
    )


# ------------------------------------------------------------------ wire and rollout parsers

DEEP = json.loads("[" * 900 + "]" * 900)
WIRE_INPUTS: list[Any] = [
    {"type": "exec_approval", "id": "1", "decision": "approved_for_session"},
    {"type": "exec_approval", "id": "1", "decision": Text("approved")},
    {"type": "exec_approval", "id": 1, "decision": "approved"},
    {"type": "exec_approval", "id": "1", "decision": ["approved"]},
    {"type": "override_turn_context", "sandbox_policy": {"mode": "danger-full-access"}},
    {
        "type": "override_turn_context",
        "sandbox_policy": {"mode": "workspace-write", "writable_roots": "/"},
    },
    {"type": "override_turn_context", "approval_policy": "granular", "granular": {"rules": 1}},
    {"type": "override_turn_context", "granular": DEEP},
    {"type": "user_input", "items": DEEP},
    {"type": "user_input", "items": [{"type": "text", "text": "hi"}], "extra": DEEP},
    {"type": Text("interrupt")},
    {"type": ["interrupt"]},
    {"type": None},
    {"type": "interrupt", "type2": "shutdown"},
    {},
    [],
    "interrupt",
    None,
    2**200,
]


@pytest.mark.parametrize("data", WIRE_INPUTS, ids=lambda d: repr(d)[:60])
def test_lite_attack_op_union_raises_only_validation_errors(data: Any) -> None:
    from pydantic import TypeAdapter

    from codex_core.lite.twin import rewrite
    from codex_core.protocol.ops import Op

    pure = TypeAdapter(rewrite(Op))
    assert_as_pydantic(lambda: OP.validate_python(data), lambda: pure.validate_python(data))


EVENT_INPUTS: list[Any] = [
    {"type": "mcp_tool_call_end", "call_id": "c", "server": "s", "tool": "t", "result": DEEP},
    {"type": "mcp_tool_call_end", "call_id": "c", "server": 1, "tool": "t"},
    {"type": "mcp_tool_call_end", "call_id": "c", "server": "s", "result": {"Ok": 1, "Err": 2}},
    {"type": "mcp_tool_call_begin", "call_id": "c", "invocation": {"server": "s"}},
    {"type": "mcp_tool_call_begin", "call_id": "c", "server": Text("s"), "tool": "t"},
    {"type": "agent_message", "message": DEEP},
    {"type": "agent_message", "message": "\ud800"},
    {"type": Text("agent_message"), "message": "x"},
    {"type": "exec_command_begin", "call_id": "c", "command": "rm -rf /", "cwd": "/"},
    {"type": "turn_context", "sandbox_policy": {"type": "danger-full-access"}},
    Table(type="agent_message", message="x"),
    None,
    [],
]


@pytest.mark.parametrize("data", EVENT_INPUTS, ids=lambda d: repr(d)[:60])
def test_lite_attack_event_parser_gives_pydantic_or_none(data: Any) -> None:
    from pydantic import TypeAdapter

    from codex_core.lite.twin import rewrite
    from codex_core.protocol.events import EventMsg

    parsed = parse_event_msg(data)  # never raises: None for what pydantic refuses
    try:
        pure = TypeAdapter(rewrite(EventMsg)).validate_python(data)
    except lite.ValidationError:
        assert parsed is None
    else:
        assert parsed is not None and parsed.model_dump() == pure.model_dump()


ITEM_INPUTS: list[Any] = [
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": 1}]},
    {"type": "message", "role": "user", "content": DEEP},
    {"type": "message", "role": ["user"], "content": []},
    {"type": "function_call", "name": "shell", "arguments": {"cmd": "id"}, "call_id": "c"},
    {"type": "function_call_output", "call_id": "c", "output": DEEP},
    {"type": "function_call_output", "call_id": "c", "output": {"content": DEEP}},
    {"type": "local_shell_call", "action": {"type": "exec", "command": "id"}},
    {"type": "local_shell_call", "action": {"type": "exec", "command": ["id"], "env": {"A": 1}}},
    {"type": "web_search_call", "action": DEEP},
    {"type": "reasoning", "summary": [{"type": "summary_text", "text": None}]},
    {"type": Text("message"), "role": "user", "content": []},
]


@pytest.mark.parametrize("data", ITEM_INPUTS, ids=lambda d: repr(d)[:60])
def test_lite_attack_rollout_item_parser_gives_pydantic_or_none(data: Any) -> None:
    from pydantic import TypeAdapter

    from codex_core.lite.twin import rewrite
    from codex_core.protocol.items import ResponseItem

    parsed = parse_response_item(data)  # never raises
    if parsed is None:
        return  # refused (or an unknown type): nothing to compare
    if data.get("type") == "function_call_output" and not isinstance(data["output"], str):
        out = data["output"]  # as the parser reads a structured output: its content as text
        content = out.get("content") if isinstance(out, dict) else out
        data = {**data, "output": content if isinstance(content, str) else json.dumps(content)}
    pure = TypeAdapter(rewrite(ResponseItem)).validate_python(data)
    assert parsed.model_dump() == pure.model_dump()
    assert json.loads(json.dumps(parsed.to_wire())) == pure.model_dump(
        mode="json", exclude_none=True
    )


def test_lite_attack_no_pydantic_import_for_the_fast_path() -> None:
    """The checks above run the fast path: valid policies never need pydantic (the point of
    issue 29), so an attacker cannot force a different validator by making it load either."""
    code = (
        "import sys\n"
        "from codex_core.policies import SANDBOX_POLICY, GranularApproval\n"
        "SANDBOX_POLICY.validate_python({'mode': 'workspace-write', 'writable_roots': ['/w']})\n"
        "GranularApproval.model_validate({'sandbox_approval': True, 'rules': True,"
        " 'mcp_elicitations': False})\n"
        "print('pydantic' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout == "False\n"
