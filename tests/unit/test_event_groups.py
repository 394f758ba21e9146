"""The event groups frontends pass over by name: real members of `EventMsg`, usable at run time."""

from __future__ import annotations

import typing

from codex_core import protocol as ev


def _members(group: object) -> set[type]:
    return set(typing.get_args(group))


def test_event_groups_are_event_types() -> None:
    every_event = _members(typing.get_args(ev.EventMsg)[0])
    groups = [
        ev.OpReplyEvent,
        ev.DeltaEvent,
        ev.ApprovalEvent,
        ev.ApprovalRequestEvent,
        ev.WebSearchEvent,
        ev.TurnEndEvent,
    ]
    for group in groups:
        assert _members(group) <= every_event


def test_event_groups_match_with_isinstance() -> None:
    assert isinstance(ev.ShutdownCompleteEvent(), ev.OpReplyEvent)
    assert isinstance(ev.AgentMessageDeltaEvent(delta="a"), ev.DeltaEvent | ev.ApprovalEvent)
    assert not isinstance(ev.AgentMessageEvent(message="a"), ev.DeltaEvent | ev.OpReplyEvent)
    assert _members(ev.ApprovalEvent) == {
        ev.ExecApprovalRequestEvent,
        ev.ApplyPatchApprovalRequestEvent,
        ev.ApprovalDecisionEvent,
    }
