"""Unit tests for the helper's pure policy parsing and writable-root computation."""

from __future__ import annotations

import json

import pytest

from codex_core.exec.sandbox import helper_policy
from codex_core.protocol.common import ReadOnlyPolicy, WorkspaceWritePolicy
from sandbox_helper.policy import (
    HelperPolicy,
    PolicyError,
    WritableRoot,
    parse_policy,
    writable_roots,
)


def test_policy_parse_read_only_has_no_network_and_no_roots() -> None:
    policy = parse_policy('{"mode":"read-only"}')
    assert policy == HelperPolicy("read-only")
    assert not policy.has_network
    assert writable_roots(policy, "/work", {"TMPDIR": "/t"}) == []


def test_policy_parse_workspace_write_reads_every_field() -> None:
    text = json.dumps(
        {
            "mode": "workspace-write",
            "writable_roots": ["/data"],
            "network_access": True,
            "exclude_tmpdir_env_var": True,
            "exclude_slash_tmp": False,
        }
    )
    assert parse_policy(text) == HelperPolicy("workspace-write", ("/data",), True, True, False)


def test_policy_parse_danger_full_access_allows_everything() -> None:
    policy = parse_policy('{"mode":"danger-full-access"}')
    assert policy.has_network and policy.has_full_disk_write


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"mode":"sometimes"}', "unknown sandbox mode"),
        ('{"mode":"workspace-write","writable_roots":"/x"}', "writable_roots"),
        ('{"mode":"workspace-write","network_access":"yes"}', "network_access"),
    ],
)
def test_policy_parse_rejects_bad_input_with_one_line(text: str, message: str) -> None:
    with pytest.raises(PolicyError, match=message) as info:
        parse_policy(text)
    assert "\n" not in str(info.value)


def test_policy_roots_include_cwd_extra_tmp_and_tmpdir_with_protected_subdirs() -> None:
    policy = HelperPolicy("workspace-write", ("/data", "rel"))
    roots = writable_roots(policy, "/work", {"TMPDIR": "/var/tmp/me/"})
    assert roots == [
        WritableRoot("/work", ("/work/.git", "/work/.agents", "/work/.codex", "/work/.aws")),
        WritableRoot("/data", ("/data/.git", "/data/.agents", "/data/.codex", "/data/.aws")),
        WritableRoot(
            "/work/rel",
            ("/work/rel/.git", "/work/rel/.agents", "/work/rel/.codex", "/work/rel/.aws"),
        ),
        WritableRoot("/tmp", ("/tmp/.git", "/tmp/.agents", "/tmp/.codex", "/tmp/.aws")),
        WritableRoot(
            "/var/tmp/me",
            ("/var/tmp/me/.git", "/var/tmp/me/.agents", "/var/tmp/me/.codex", "/var/tmp/me/.aws"),
        ),
    ]


def test_policy_roots_follow_tmp_exclusions_and_drop_duplicates() -> None:
    policy = HelperPolicy(
        "workspace-write", ("/work",), exclude_slash_tmp=True, exclude_tmpdir_env_var=True
    )
    assert [r.root for r in writable_roots(policy, "/work", {"TMPDIR": "/t"})] == ["/work"]


def test_policy_round_trips_through_json_and_matches_the_protocol_model() -> None:
    proto = WorkspaceWritePolicy(writable_roots=["/a"], network_access=True)
    policy = helper_policy(proto)
    assert parse_policy(policy.to_json()) == policy
    assert json.loads(policy.to_json()) == proto.model_dump(mode="json")
    assert helper_policy(ReadOnlyPolicy()).to_json() == '{"mode": "read-only"}'
