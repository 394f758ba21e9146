"""The tests' schema check of server messages: checking a notification or request against the
arm of its method gives the verdict of the whole 0.169 schema file, and rejects what it rejects."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from tests.servers.rpc_client import SchemaChecker

DELTA = {"threadId": "t", "turnId": "u", "itemId": "i", "delta": "hi"}
CASES: list[tuple[dict[str, Any], bool]] = [
    ({"method": "item/agentMessage/delta", "params": DELTA}, True),
    ({"method": "item/agentMessage/delta", "params": {**DELTA, "delta": 3}}, False),
    ({"method": "item/agentMessage/delta", "params": {"threadId": "t"}}, False),
    ({"method": "item/agentMessage/delta"}, False),
    ({"method": "no/such/notification", "params": DELTA}, False),
    ({"method": "turn/started", "params": DELTA}, False),
    ({"method": 7, "params": DELTA}, False),
    ({"params": DELTA}, False),
]


@pytest.mark.parametrize(("message", "valid"), CASES)
def test_schema_checker_gives_the_whole_files_verdict(
    checker: SchemaChecker, message: dict[str, Any], valid: bool
) -> None:
    whole = jsonschema.Draft7Validator(
        json.loads((checker.root / "ServerNotification.json").read_text())
    )
    assert whole.is_valid(message) == valid
    sent = {**message, "emittedAtMs": 1}
    if valid:
        checker.check(sent, None)
        assert checker.checked == 1
    else:
        with pytest.raises(AssertionError, match="ServerNotification.json"):
            checker.check(sent, None)


def test_schema_checker_narrows_server_requests_too(checker: SchemaChecker) -> None:
    request = {"id": 1, "method": "no/such/request", "params": {}}
    with pytest.raises(AssertionError, match="ServerRequest.json"):
        checker.check(request, None)
    with pytest.raises(AssertionError, match="ServerRequest.json"):
        checker.check({"id": 1, "method": "item/commandExecution/requestApproval"}, None)
