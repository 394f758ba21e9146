"""Start-up (issue 29): the protocol's union validators are built on first use, and the
shortcuts that avoid them give what validation gives."""

from __future__ import annotations

import pytest

from codex_core.protocol import Event, WarningEvent
from codex_core.protocol.common import SANDBOX_POLICY, sandbox_policy_from_mode
from tests.support.fresh_python import python_output


def test_protocol_deferred_validators_not_built_at_import() -> None:
    probe = (
        "from codex_core.protocol import EVENT_MSG, OP\n"
        "from codex_core.protocol.common import SANDBOX_POLICY\n"
        "from codex_core.protocol.items import _RESPONSE_ITEM\n"
        "print([a.pydantic_complete for a in (EVENT_MSG, OP, SANDBOX_POLICY, _RESPONSE_ITEM)])"
    )
    assert python_output(probe).strip() == "[False, False, False, False]"


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
