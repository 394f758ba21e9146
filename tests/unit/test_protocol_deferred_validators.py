"""Start-up (issue 29): the protocol, the policies and config.toml's schema are light models
(codex_core.lite): importing them and using them as start-up does imports no pydantic, and
the shortcuts give what validation gives."""

from __future__ import annotations

import pytest

from codex_core.protocol import Event, WarningEvent
from codex_core.protocol.common import SANDBOX_POLICY, sandbox_policy_from_mode
from tests.support.fresh_python import python_output


def test_protocol_deferred_no_pydantic_to_import_and_use() -> None:
    probe = (
        "import sys\n"
        "from codex_core.protocol import EVENT_MSG, OP, Event, TaskStartedEvent, UserTurnOp\n"
        "from codex_core.protocol.common import SANDBOX_POLICY\n"
        "from codex_core.protocol.items import parse_response_item, user_message\n"
        "from codex_core.config.schema import ConfigToml\n"
        "ConfigToml.model_validate({'model': 'm', 'mcp_servers': {'a': {'command': 'x'}}})\n"
        "SANDBOX_POLICY.validate_python({'mode': 'workspace-write'})\n"
        "EVENT_MSG.validate_python({'type': 'task_started'})\n"
        "Event(id='1', msg=TaskStartedEvent()).model_dump(mode='json')\n"
        "parse_response_item(user_message('hi').to_wire())\n"
        "print('pydantic' in sys.modules, 'pydantic_core' in sys.modules)"
    )
    assert python_output(probe).strip() == "False False"


@pytest.mark.parametrize("mode", ["read-only", "workspace-write", "danger-full-access"])
def test_protocol_deferred_policy_from_mode_is_the_validated_one(mode: str) -> None:
    direct = sandbox_policy_from_mode(mode)
    validated = SANDBOX_POLICY.validate_python({"mode": mode})
    assert type(direct) is type(validated)
    assert direct == validated
    assert direct.model_fields_set == validated.model_fields_set
    assert direct.to_wire() == validated.to_wire()


def test_protocol_deferred_policy_from_unknown_mode_still_fails() -> None:
    with pytest.raises(ValueError):
        sandbox_policy_from_mode("everything")


def test_protocol_deferred_constructed_event_equals_validated() -> None:
    msg = WarningEvent(message="careful")
    assert Event.model_construct(id="3", msg=msg) == Event(id="3", msg=msg)
    assert (
        Event.model_construct(id="3", msg=msg).model_dump() == Event(id="3", msg=msg).model_dump()
    )
