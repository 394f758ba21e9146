"""Attacks on the light models (issue 29) that succeeded against their first version: each
test states what pydantic (codex before the light models) did; the light path does the same
now. Extra keys never hide methods, NaN/inf dump as null in JSON mode, config.toml's granular
errors name the key, a frozen model refuses `del`, JSON is parsed by pydantic's rules, and a
recorded policy of an unhashable type is ignored.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from codex_core import lite
from codex_core.config.errors import ConfigError
from codex_core.config.loader import load_config
from codex_core.lite.twin import twin
from codex_core.policies import GranularApproval, sandbox_policy_from_wire
from codex_core.protocol.items import Message, parse_response_item
from codex_core.protocol.review import ReviewOutput
from codex_core.protocol.tool_events import McpInvocation
from tests.security.test_lite_model_attacks import run_codex
from tests.support.model_server import ModelServer
from tests.support.sse import completed, created, message, output_item_done, turn

# ------------------------------------------------------------------ 1. extra keys shadow methods

SESSION = "00000000-0000-4000-8000-0000000000a1"


def rollout_line(line_type: str, payload: dict[str, Any]) -> str:
    record = {"timestamp": "2025-10-01T12:00:00.000Z", "type": line_type, "payload": payload}
    return json.dumps(record) + "\n"


@pytest.mark.parametrize("name", ["text", "to_wire", "model_dump", "model_copy"])
def test_lite_fixed_extra_key_does_not_replace_a_method(name: str) -> None:
    """pydantic keeps `extra="allow"` keys in `__pydantic_extra__`: `item.text()` and
    `item.to_wire()` stay methods. The light model stores them in the instance `__dict__`,
    which shadows the class's methods: any item from a rollout or the model's stream with a
    key `text` or `to_wire` makes the next request raise TypeError."""
    data = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}
    item = parse_response_item({**data, name: {"x": 1}})
    assert isinstance(item, Message)
    assert item.text() == "hi"
    assert item.to_wire() == {**data, name: {"x": 1}}
    assert item.model_dump()[name] == {"x": 1}
    assert item.model_copy(update={"role": "assistant"}).role == "assistant"


def test_lite_fixed_extra_dunder_key_does_not_break_copy_or_pickle() -> None:
    """`copy.deepcopy` and pickle look `__deepcopy__` / `__reduce_ex__` up on the instance:
    extra keys of those names make both raise TypeError (no caller in codex today)."""
    import copy
    import pickle

    data = {"type": "message", "role": "user", "content": [], "__deepcopy__": 1}
    item = parse_response_item({**data, "__reduce_ex__": 2})
    assert item is not None
    assert copy.deepcopy(item).model_dump() == item.model_dump()
    assert pickle.loads(pickle.dumps(item)).model_dump() == item.model_dump()


def run_exec(codex_bin: Path, home: Path, cwd: Path, server: ModelServer, *args: str) -> Any:
    return run_codex(codex_bin, home, cwd, *server.cli_flags(), *args)


@pytest.mark.e2e
def test_lite_fixed_resume_of_a_rollout_item_with_a_to_wire_key(
    codex_bin: Path, codex_home: Path, tmp_path: Path, model_server: ModelServer
) -> None:
    """The pydantic version resumes and answers; the light one fails every turn with
    "internal error: 'int' object is not callable"."""
    folder = codex_home / "sessions" / "2025" / "10" / "01"
    folder.mkdir(parents=True)
    item = {
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": "hi"}],
        "to_wire": 1,
    }
    meta = {"id": SESSION, "timestamp": "2025-10-01T10:00:00Z", "cwd": str(tmp_path)}
    (folder / f"rollout-2025-10-01T10-00-00-{SESSION}.jsonl").write_text(
        rollout_line("session_meta", meta)
        + rollout_line("response_item", item)
        + rollout_line("event_msg", {"type": "user_message", "message": "hi"})
    )
    model_server.add(turn(message("resumed")))
    done = run_exec(codex_bin, codex_home, tmp_path, model_server, "resume", SESSION, "go on")
    assert (done.returncode, done.stdout) == (0, "resumed\n"), done.stderr


@pytest.mark.e2e
def test_lite_fixed_model_message_with_a_text_field(
    codex_bin: Path, codex_home: Path, tmp_path: Path, model_server: ModelServer
) -> None:
    """An assistant message item carrying a `text` field (as Responses API objects may): the
    pydantic version prints the message; the light one fails the turn ("'dict' object is not
    callable")."""
    item = {
        "type": "message",
        "id": "msg_1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "hello", "annotations": []}],
        "text": {"format": "plain"},
    }
    model_server.add([created(), output_item_done(item), completed()])
    done = run_exec(codex_bin, codex_home, tmp_path, model_server, "hi")
    assert (done.returncode, done.stdout) == (0, "hello\n"), done.stderr


# ------------------------------------------------------------------ 2. granular config errors

GRANULAR_BAD = {
    "int": (
        "{ granular = { sandbox_approval = 1, rules = true, mcp_elicitations = true } }",
        "approval_policy.granular.sandbox_approval = 1 is not a boolean",
    ),
    "missing": (
        "{ granular = { sandbox_approval = true } }",
        "approval_policy.granular.rules is required; add it to [approval_policy.granular]",
    ),
    "extra": (
        "{ granular = { sandbox_approval = true, rules = true, mcp_elicitations = true }, "
        "never = true }",
        "approval_policy.never = true is invalid (Extra inputs are not permitted)",
    ),
    "not-a-table": ("{ granular = true }", "approval_policy.granular = true is not a table"),
    "no-granular": ("{}", "approval_policy.granular is required; add it to [approval_policy]"),
}


@pytest.mark.parametrize("name", sorted(GRANULAR_BAD))
def test_lite_fixed_granular_config_error_names_the_key(codex_home: Path, name: str) -> None:
    """Since a6227f3 the twin's union member is a wrap validator: its error location reads
    `function-wrap[validate()]` instead of `GranularToml`, so the loader reports the literal
    branch: `approval_policy."literal['untrusted',...]" = { ... } is not one of ...`."""
    value, tail = GRANULAR_BAD[name]
    (codex_home / "config.toml").write_text(f"approval_policy = {value}\n")
    with pytest.raises(ConfigError) as refused:
        load_config(codex_home=codex_home, environ={})
    assert str(refused.value) == f"{codex_home / 'config.toml'}:1: {tail}"


@pytest.mark.e2e
def test_lite_fixed_granular_config_error_by_the_console_script(
    codex_bin: Path, codex_home: Path, tmp_path: Path
) -> None:
    value, tail = GRANULAR_BAD["int"]
    (codex_home / "config.toml").write_text(f"approval_policy = {value}\n")
    env = {**os.environ, "CODEX_HOME": str(codex_home), "OPENAI_API_KEY": "sk-test"}
    done = subprocess.run(
        [str(codex_bin), "exec", "--skip-git-repo-check", "hi"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1
    assert done.stderr == f"codex: {codex_home / 'config.toml'}:1: {tail}\n"


# ------------------------------------------------------------------ 3. frozen, but deletable


def test_lite_fixed_frozen_granular_refuses_delete() -> None:
    """pydantic refuses `del` on a frozen model (ValidationError, frozen_instance); the light
    GranularApproval lets a field go, after which its hash changes and `granular_asks`
    raises AttributeError."""
    settings = GranularApproval(sandbox_approval=True, rules=True, mcp_elicitations=True)
    with pytest.raises((TypeError, ValueError)):
        del settings.rules
    assert settings.rules is True


# ------------------------------------------------------------------ 4. JSON dumps of `Any`


@pytest.mark.parametrize("value", [math.nan, math.inf, {"n": -math.inf}, [math.nan]], ids=repr)
def test_lite_fixed_json_dump_of_any_writes_null_for_nan(value: Any) -> None:
    """pydantic's JSON-mode dump writes NaN and ±inf held in an `Any` field (MCP arguments,
    results, web search actions) as null; the light dump keeps the float, so `to_wire()`
    followed by json.dumps writes `NaN`/`Infinity`, which is not JSON."""
    light = McpInvocation(server="s", tool="t", arguments=value)
    pure = twin(McpInvocation)(server="s", tool="t", arguments=value)
    assert json.dumps(light.to_wire()) == json.dumps(pure.model_dump(mode="json"))


@pytest.mark.e2e
def test_lite_fixed_nan_in_a_search_action_breaks_the_session(
    codex_bin: Path, codex_home: Path, tmp_path: Path, model_server: ModelServer
) -> None:
    """A `web_search_call` item whose `action` holds NaN (the stream is read with json.loads,
    which takes NaN and turns 1e999 into inf): the pydantic version records and resends it as
    null; the light one records `NaN` in the rollout and every later request of the session
    fails ("internal error: Out of range float values are not JSON compliant")."""
    search = {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "completed",
        "action": {"type": "search", "query": "q", "score": math.nan},
    }
    answer = {
        "type": "message",
        "id": "m1",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "first", "annotations": []}],
    }
    model_server.add(
        [created(), output_item_done(search), output_item_done(answer, 1), completed()]
    )
    first = run_exec(codex_bin, codex_home, tmp_path, model_server, "--json", "hi")
    assert first.returncode == 0, first.stderr
    thread = json.loads(first.stdout.splitlines()[0])["thread_id"]
    model_server.add(turn(message("second")))
    again = run_exec(codex_bin, codex_home, tmp_path, model_server, "resume", thread, "again")
    assert (again.returncode, again.stdout) == (0, "second\n"), again.stderr
    resent = [i for i in model_server.bodies[1]["input"] if i.get("type") == "web_search_call"]
    assert [i["action"] for i in resent] == [{"type": "search", "query": "q", "score": None}]


# ------------------------------------------------------------------ 5. model_validate_json


@pytest.mark.parametrize(
    "data",
    [
        '{"overall_explanation": "\\ud800"}',
        b'\xef\xbb\xbf{"overall_explanation": "a"}',
        '{"overall_explanation": "a"}'.encode("utf-16"),
        '{"findings": [], "x": ' + "[" * 5000 + "]" * 5000 + "}",
    ],
    ids=["lone-surrogate", "utf8-bom", "utf16", "deep"],
)
def test_lite_fixed_validate_json_as_pydantic(data: str | bytes) -> None:
    """`model_validate_json` parses with `json.loads`: it accepts lone surrogates, a BOM and
    UTF-16 that pydantic refuses, and lets RecursionError escape where pydantic raises
    ValidationError (no caller yet: latent)."""
    with pytest.raises(lite.ValidationError):
        ReviewOutput.model_validate_json(data)


# ------------------------------------------------------------------ 6. pre-existing (not lite)


@pytest.mark.parametrize("wire", [{"type": []}, {"mode": {"a": 1}}, {"type": ["read-only"]}])
def test_lite_fixed_recorded_policy_of_unhashable_type(wire: dict[str, Any]) -> None:
    """Before issue 29 too: `sandbox_policy_from_wire` tests `mode in _POLICY_OF_MODE` on a
    rollout's value, which raises TypeError for a list or table instead of giving None."""
    assert sandbox_policy_from_wire(wire) is None


# ------------------------------------------------------------------ 7. pydantic's own TypeAdapter


@pytest.mark.parametrize(
    "change",
    [{"content": "x"}, {"unified_diff": "@@", "content": "x"}, {}],
    ids=["content-only", "diff-and-content", "empty"],
)
def test_lite_fixed_pydantic_adapter_keeps_the_file_change_tag(change: dict[str, Any]) -> None:
    """`FileChange = Annotated[..., lite.Field(discriminator="type")]`: pydantic's own
    `TypeAdapter` (ACP replay's `_CHANGES`, the app-server's `persisted._file_change`) does
    not know the light `Field`, drops the discriminator and validates a smart union, so a
    rollout's untagged change becomes an `AddChange` where pydantic said "Unable to extract
    tag using discriminator 'type'"."""
    from codex_core.servers.acp.replay import _CHANGES

    with pytest.raises(lite.ValidationError) as refused:
        _CHANGES.validate_python({"a.txt": change})
    assert refused.value.errors()[0]["type"] == "union_tag_not_found"


@pytest.mark.parametrize("target", [{}, {"sha": "abc", "instructions": "x"}], ids=repr)
def test_lite_fixed_pydantic_adapter_keeps_the_review_target_tag(target: dict[str, Any]) -> None:
    """The app-server's review start validates its target with pydantic's TypeAdapter over
    `ReviewTarget`: untagged targets now pass (an empty one as `uncommittedChanges`)."""
    from pydantic import TypeAdapter

    from codex_core.protocol.review import ReviewTarget

    with pytest.raises(lite.ValidationError):
        TypeAdapter(ReviewTarget).validate_python(target)
