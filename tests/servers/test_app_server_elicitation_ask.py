"""The translator asks MCP servers' questions from the item projection (`ElicitationAsk`), and
a thread's preview is the projection's: what the thread pump needs without a raw event.

The wire sequence around a form elicitation in a turn is compared with codex-rust 0.169 in
`test_app_server_elicitation.py`; here are the cases that test cannot reach over the wire
(URL mode, a question between turns), schema-checked against the 0.169 bundle.
"""

from __future__ import annotations

from codex_core.protocol import (
    ElicitationRequestEvent,
    Event,
    ResolveElicitationOp,
    TaskStartedEvent,
    UserMessageEvent,
)
from codex_core.servers.app_server import elicitation
from codex_core.servers.app_server import model_notify as n
from codex_core.servers.app_server.translate import ElicitationAsk, Translator
from codex_core.servers.app_server.wire import server_request
from tests.servers.rpc_client import SchemaChecker

SIGN_IN = ElicitationRequestEvent(
    server_name="docs",
    id="3",
    message="Sign in to continue",
    mode="url",
    url="https://x.test/login",
    elicitation_id="el-7",
)


def test_app_server_elicitation_between_turns_asks_without_a_turn(checker: SchemaChecker) -> None:
    translator = Translator("t1")
    out = translator.translate(Event(id="0", msg=SIGN_IN))
    assert len(out) == 1 and isinstance(out[0], ElicitationAsk)
    ask = out[0]
    assert ask.params == {
        "threadId": "t1",
        "turnId": None,
        "serverName": "docs",
        "mode": "url",
        "_meta": None,
        "message": "Sign in to continue",
        "url": "https://x.test/login",
        "elicitationId": "el-7",
    }
    checker.check(server_request(0, elicitation.METHOD, ask.params), None)
    assert not ask.request.during_turn
    assert elicitation.answer_op(ask.request, {"action": "accept"}) == ResolveElicitationOp(
        server_name="docs", request_id="3", decision="accept"
    )
    assert elicitation.answer_op(ask.request, {"action": "maybe"}).decision == "decline"


def test_app_server_elicitation_in_a_turn_waits_on_the_user_first(checker: SchemaChecker) -> None:
    translator = Translator("t1")
    turn = translator.begin_turn("1", [], compact=False)
    translator.translate(Event(id="1", msg=TaskStartedEvent()))
    form = ElicitationRequestEvent(
        server_name="everything",
        id="1",
        message="Your name?",
        requested_schema={"type": "object", "properties": {"name": {"type": "string"}}},
        turn_id="1",
    )
    out = translator.translate(Event(id="1", msg=form))
    assert [type(x) for x in out] == [n.ThreadStatusChangedNotification, ElicitationAsk]
    status, ask = out
    assert isinstance(status, n.ThreadStatusChangedNotification)
    assert status.model_dump(mode="json")["status"] == {
        "type": "active",
        "activeFlags": ["waitingOnApproval"],
    }
    assert isinstance(ask, ElicitationAsk)
    assert (ask.params["turnId"], ask.params["mode"]) == (turn.id, "form")
    checker.check(server_request(5, elicitation.METHOD, ask.params), None)
    assert ask.request.during_turn
    answer = {"action": "accept", "content": {"name": "Ada"}}
    assert elicitation.answer_op(ask.request, answer).content == {"name": "Ada"}


def test_app_server_thread_preview_is_its_first_user_message() -> None:
    translator = Translator("t1")
    assert translator.preview == ""
    translator.translate(Event(id="1", msg=UserMessageEvent(message="")))
    assert translator.preview == ""
    translator.translate(Event(id="1", msg=UserMessageEvent(message="fix the parser")))
    translator.translate(Event(id="2", msg=UserMessageEvent(message="and the tests")))
    assert translator.preview == "fix the parser"
