"""`WireItems` over generated wire sequences: the projection's guarantees hold for the notices
the TUI renders straight from the wire.

A generated session is turns of items as an app-server sends them (messages and reasoning
streamed in deltas, commands and patches with or without an approval answered here or by
another client, MCP calls, web searches, status notices), each turn possibly cut anywhere
and ended interrupted. Whatever the cut: every `ItemStarted` is completed exactly once and
nothing is completed that was not started; a message's or reasoning's deltas join to the
text it completes with; every approval request gets exactly one answer, or is closed (its
item completed) when the turn ends; a turn's notices end with `TurnEnded`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from codex_core.items import client as c
from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_tui.app.wire_items import ELICITATION, EXEC_APPROVAL, PATCH_APPROVAL, WireItems

THREAD = "t"
Step = tuple[str, Any]
"""`("note", (method, params))`, `("request", (id, method, params))`, `("answer", (item, decision))`."""

text = st.text(alphabet="ab \n*\x1b", min_size=0, max_size=4)
approval = st.sampled_from(
    ["none", "ours-yes", "ours-session", "ours-no", "ours-abort", "other-yes", "other-no"]
)
item_script = st.one_of(
    st.tuples(st.just("message"), st.lists(text, max_size=4)),
    st.tuples(st.just("reasoning"), st.lists(text, max_size=4)),
    st.tuples(st.just("command"), approval, st.lists(text, max_size=3), st.booleans()),
    st.tuples(st.just("patch"), approval, st.booleans()),
    st.tuples(st.just("mcp"), st.booleans()),
    st.tuples(st.just("search"), st.booleans()),
    st.tuples(
        st.just("noise"),
        st.sampled_from(["usage", "plan", "warning", "diff", "retry", "error", "elicit"]),
    ),
)
turn_script = st.tuples(st.lists(item_script, max_size=6), st.integers(min_value=0), st.booleans())


def _note(method: str, **params: Any) -> Step:
    return ("note", (method, {"threadId": THREAD, **params}))


class Script:
    """Turns generated item scripts into the wire steps of a server."""

    def __init__(self) -> None:
        self.ids = 0
        self.requests = 100

    def _id(self, kind: str) -> str:
        self.ids += 1
        return f"{kind}{self.ids}"

    def turn(self, items: list[Any], cut: int, interrupted: bool, number: int) -> list[Step]:
        turn_id = f"turn{number}"
        steps = [_note("turn/started", turn={"id": turn_id})]
        body: list[Step] = []
        for script in items:
            body += self._item(script)
        if interrupted:
            body = body[: cut % (len(body) + 1)]
        status = "interrupted" if interrupted else "completed"
        return steps + body + [_note("turn/completed", turn={"id": turn_id, "status": status})]

    def _item(self, script: Any) -> list[Step]:
        kind = script[0]
        if kind in ("message", "reasoning"):
            return self._text(kind, script[1])
        if kind == "command":
            return self._command(script[1], script[2], script[3])
        if kind == "patch":
            return self._patch(script[1], script[2])
        if kind == "mcp":
            item = {"id": self._id("m"), "type": "mcpToolCall", "server": "s", "tool": "t"}
            ok = (
                {"status": "completed", "result": {"content": []}}
                if script[1]
                else {
                    "status": "failed",
                    "error": {"message": "no"},
                }
            )
            return [_note("item/started", item=item), _note("item/completed", item={**item, **ok})]
        if kind == "search":
            item = {"id": self._id("ws"), "type": "webSearch", "query": ""}
            done = {**item, "query": "q", "action": {"type": "search", "query": "q"}}
            steps = [_note("item/completed", item=done)]
            return ([_note("item/started", item=item)] if script[1] else []) + steps
        return self._noise(script[1])

    def _text(self, kind: str, parts: list[str]) -> list[Step]:
        item_id = self._id(kind[0])
        if kind == "message":
            deltas = [_note("item/agentMessage/delta", itemId=item_id, delta=p) for p in parts]
            done = {"id": item_id, "type": "agentMessage", "text": "".join(parts)}
        else:
            deltas = [_note("item/reasoning/summaryPartAdded", itemId=item_id, summaryIndex=0)]
            deltas += [
                _note("item/reasoning/summaryTextDelta", itemId=item_id, delta=p) for p in parts
            ]
            done = {"id": item_id, "type": "reasoning", "summary": ["".join(parts)]}
        started = {"id": item_id, "type": done["type"]}
        return [_note("item/started", item=started), *deltas, _note("item/completed", item=done)]

    def _asked(
        self, item: dict[str, Any], method: str, params: dict[str, Any], how: str
    ) -> tuple[list[Step], bool]:
        """The question and its answer; whether the item then runs."""
        if how == "none":
            return [], True
        self.requests += 1
        request_id = self.requests
        params = {"threadId": THREAD, "itemId": item["id"], **params}
        steps: list[Step] = [("request", (request_id, method, params))]
        decisions = {"yes": "approved", "session": "approved_for_session", "no": "denied"}
        who, answer = how.split("-")
        if who == "ours":
            steps.append(("answer", (item["id"], decisions.get(answer, "abort"))))
        steps.append(_note("serverRequest/resolved", requestId=request_id))
        return steps, answer in ("yes", "session")

    def _command(self, how: str, output: list[str], ok: bool) -> list[Step]:
        item = {"id": self._id("c"), "type": "commandExecution", "command": "ls -a", "cwd": "/w"}
        asked, runs = self._asked(item, EXEC_APPROVAL, {"command": "ls -a", "cwd": "/w"}, how)
        steps = [_note("item/started", item=item), *asked]
        if not runs:
            return steps + [_note("item/completed", item={**item, "status": "declined"})]
        steps += [
            _note("item/commandExecution/outputDelta", itemId=item["id"], delta=chunk)
            for chunk in output
        ]
        done = {"status": "completed" if ok else "failed", "exitCode": 0 if ok else 2}
        return steps + [
            _note("item/completed", item={**item, **done, "aggregatedOutput": "".join(output)})
        ]

    def _patch(self, how: str, ok: bool) -> list[Step]:
        changes = [{"path": "/w/a", "kind": {"type": "add"}, "diff": "x\n"}]
        item = {"id": self._id("p"), "type": "fileChange", "changes": changes}
        asked, runs = self._asked(item, PATCH_APPROVAL, {}, how)
        steps = [_note("item/started", item=item), *asked]
        status = ("completed" if ok else "failed") if runs else "declined"
        return steps + [_note("item/completed", item={**item, "status": status})]

    def _noise(self, what: str) -> list[Step]:
        match what:
            case "usage":
                return [_note("thread/tokenUsage/updated", tokenUsage={"total": {}, "last": {}})]
            case "plan":
                plan = [{"step": "s", "status": "inProgress"}]
                return [_note("turn/plan/updated", plan=plan)]
            case "warning":
                return [_note("warning", message="careful")]
            case "diff":
                return [_note("turn/diff/updated", diff="+x")]
            case "retry":
                return [_note("error", willRetry=True, error={"message": "again"})]
            case "error":
                return [_note("error", willRetry=False, error={"message": "broke"})]
            case _:
                self.requests += 1
                params = {"threadId": THREAD, "serverName": "s", "message": "?"}
                return [("request", (self.requests, ELICITATION, params))]


def run(steps: list[Step]) -> list[c.ClientNotice]:
    wire = WireItems()
    out: list[c.ClientNotice] = [wire.thread_opened({"thread": {"id": THREAD}})]
    for kind, what in steps:
        if kind == "note":
            out += wire.notification(*what)
        elif kind == "request":
            out += wire.server_request(*what)
        else:
            found = wire.answered(*what)
            if found is not None:
                out += found[1]
                assert wire.answered(*what) is None  # one answer only
    return out


def check(notices: list[c.ClientNotice]) -> None:
    started: Counter[str] = Counter()
    completed: dict[str, n.ItemCompleted] = {}
    deltas: dict[str, str] = {}
    asked: set[str] = set()
    answers: Counter[str] = Counter()
    began: Counter[str] = Counter()
    by_approval: set[str] = set()
    for notice in notices:
        match notice:
            case n.ItemStarted():
                assert notice.item.id not in started, f"{notice.item.id} started twice"
                started[notice.item.id] += 1
                if notice.by == "approval":
                    by_approval.add(notice.item.id)
            case n.ItemCompleted():
                item_id = notice.item.id
                assert started[item_id] == 1, f"{item_id} completed without a start"
                assert item_id not in completed, f"{item_id} completed twice"
                completed[item_id] = notice
            case n.AgentMessageDelta() | n.ReasoningDelta():
                assert notice.item_id in started and notice.item_id not in completed
                deltas[notice.item_id] = deltas.get(notice.item_id, "") + notice.delta
            case n.CommandOutputDelta():
                assert notice.item_id in started and notice.item_id not in completed
            case n.CommandApprovalRequested() | n.PatchApprovalRequested():
                asked.add(notice.item_id)
            case n.ApprovalDecided():
                answers[notice.item_id] += 1
            case c.ItemBegan():
                assert notice.item.id in by_approval and notice.item.id not in completed
                began[notice.item.id] += 1
            case _:
                pass
    assert set(started) == set(completed), f"left open: {set(started) - set(completed)}"
    for item_id, done in completed.items():
        item = done.item
        if isinstance(item, k.AgentMessageItem | k.ReasoningItem) and item_id in deltas:
            assert item.text == deltas[item_id], f"{item_id}: deltas do not join to its text"
    for item_id in asked:
        assert answers[item_id] <= 1, f"{item_id} answered {answers[item_id]} times"
        closed = completed[item_id].cause == "turn_ended"
        assert answers[item_id] == 1 or closed, f"{item_id}: neither answered nor closed"
    assert all(count == 1 for count in began.values())
    assert isinstance(notices[-1], n.TurnEnded)


@settings(max_examples=300, deadline=None)
@given(turns=st.lists(turn_script, min_size=1, max_size=3))
def test_wire_items_property_items_pair_deltas_join_approvals_answer_once(
    turns: list[tuple[list[Any], int, bool]],
) -> None:
    script = Script()
    steps: list[Step] = []
    for number, (items, cut, interrupted) in enumerate(turns):
        steps += script.turn(items, cut, interrupted, number)
    check(run(steps))
