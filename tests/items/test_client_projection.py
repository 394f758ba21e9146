"""The projection as the TUI renders it (`ClientProjection`): the one projection's notices
unchanged, plus an allowed call's begin, the answers to the TUI's own ops, a session's
header facts and a resumed session's past."""

from __future__ import annotations

from hypothesis import given, settings

from codex_core import protocol as ev
from codex_core.items import ClientProjection, Projection
from codex_core.items import client as c
from codex_core.items import kinds as k
from codex_core.items import notices as n
from codex_core.protocol.common import WorkspaceWritePolicy
from tests.items.test_projection_properties import session

CHANGES: dict[str, ev.FileChange] = {"/w/a.txt": ev.AddChange(content="x\n")}


@settings(max_examples=300, deadline=None)
@given(session())
def test_client_projection_adds_only_began_items_to_the_one_projection(
    events: list[ev.Event],
) -> None:
    plain, client = Projection(), ClientProjection()
    asked: dict[str, type] = {}
    """Open items started by their approval request, not yet begun."""
    for event in events:
        told = client.feed_client(event.id, event.msg)
        assert [x for x in told if not isinstance(x, c.ClientOnlyNotice)] == plain.feed(event)
        for notice in told:
            match notice:
                case n.ItemStarted(by="approval"):
                    asked[notice.item.id] = type(notice.item)
                case n.ItemCompleted():
                    asked.pop(notice.item.id, None)
                case c.ItemBegan():
                    assert asked.pop(notice.item.id) is type(notice.item), "began once, asked"
                    assert notice.item.id in client.open_items()
                case _:
                    pass


def test_client_projection_tells_an_allowed_command_and_patch_as_they_begin() -> None:
    projection = ClientProjection()
    argv = ["bash", "-lc", "make"]
    feed = [
        ev.TaskStartedEvent(),
        ev.ExecApprovalRequestEvent(call_id="x", command=argv, cwd="/w"),
        ev.ApprovalDecisionEvent(call_id="x", kind="exec", decision="approved", command=argv),
        ev.ExecCommandBeginEvent(call_id="x", command=argv, cwd="/w/sub"),
        ev.ExecCommandBeginEvent(call_id="x", command=argv, cwd="/w/sub"),  # told once
        ev.ApplyPatchApprovalRequestEvent(call_id="p", changes=CHANGES),
        ev.ApprovalDecisionEvent(call_id="p", kind="patch", decision="approved"),
        ev.PatchApplyBeginEvent(call_id="p", auto_approved=False, changes=CHANGES),
        ev.ExecCommandBeginEvent(call_id="y", command=argv, cwd="/w"),  # never asked
    ]
    began = [
        x for msg in feed for x in projection.feed_client("1", msg) if isinstance(x, c.ItemBegan)
    ]
    assert began == [
        c.ItemBegan("1", k.CommandExecutionItem("x", tuple(argv), "/w/sub")),
        c.ItemBegan("1", k.FileChangeItem("p", CHANGES)),
    ]


def test_client_projection_an_allowed_write_to_a_terminal_never_begins() -> None:
    projection = ClientProjection()
    typed = ["write_stdin", "--session-id", "3", "y\n"]
    feed = [
        ev.ExecApprovalRequestEvent(call_id="w", command=typed, cwd="/w"),
        ev.ApprovalDecisionEvent(call_id="w", kind="exec", decision="approved", command=typed),
        ev.TerminalInteractionEvent(call_id="w", process_id="3", stdin="y\n"),
        ev.TaskCompleteEvent(),
    ]
    told = [x for msg in feed for x in projection.feed_client("1", msg)]
    assert not [x for x in told if isinstance(x, c.ItemBegan)]
    assert projection.open_items() == []


def test_client_projection_answers_to_the_clients_ops() -> None:
    projection = ClientProjection()
    terminal = ev.BackgroundTerminal(process_id="3", command="sleep 9", elapsed_ms=5)
    server = ev.McpServerStatus(name="docs", status="ready", tools=["search"])
    replies: list[tuple[ev.EventMsg, c.ClientNotice]] = [
        (ev.McpListToolsResponseEvent(servers=[server]), c.McpServersListed("1", (server,))),
        (
            ev.ListBackgroundTerminalsResponseEvent(terminals=[terminal]),
            c.BackgroundTerminalsListed("1", (terminal,)),
        ),
        (
            ev.BackgroundTerminalsStoppedEvent(unknown_process_id="9"),
            c.BackgroundTerminalsStopped("1", (), "9"),
        ),
        (
            ev.GetHistoryEntryResponseEvent(offset=2, log_id=7, entry="ls"),
            c.HistoryEntryFetched("1", 2, 7, "ls"),
        ),
    ]
    for msg, reply in replies:
        assert projection.feed_client("1", msg) == [reply]
        assert Projection().feed_msg("1", msg) == []  # no other frontend sends these ops


def test_client_projection_thread_started_carries_the_header_and_the_past() -> None:
    past = [
        {"type": "session_configured", "session_id": "old", "model": "m"},  # skipped
        {"type": "task_started"},
        {"type": "user_message", "message": "hi"},
        {"type": "agent_message", "message": "hello"},
        {"type": "exec_command_end", "call_id": "c", "exit_code": 0, "command": ["ls"]},
        {"type": "task_complete"},
        {"type": "no_such_event"},  # skipped
    ]
    configured = ev.SessionConfiguredEvent(
        session_id="s",
        model="gpt-5",
        reasoning_effort="high",
        cwd="/w",
        rollout_path="/r.jsonl",
        approval_policy="on-request",
        sandbox_policy=WorkspaceWritePolicy(),
        history_log_id=7,
        history_entry_count=3,
        initial_messages=past,
    )
    [started] = ClientProjection().feed_client("0", configured)
    assert isinstance(started, n.ThreadStarted)
    assert (started.thread_id, started.model, started.reasoning_effort) == ("s", "gpt-5", "high")
    assert (started.cwd, started.rollout_path, started.approval_policy) == (
        "/w",
        "/r.jsonl",
        "on-request",
    )
    assert started.sandbox_policy == WorkspaceWritePolicy()
    assert (started.history_log_id, started.history_entry_count) == (7, 3)
    history = c.history(started)
    completed = [x.item for x in history if isinstance(x, n.ItemCompleted)]
    assert [type(item) for item in completed] == [
        k.UserMessageItem,
        k.AgentMessageItem,
        k.CommandExecutionItem,
    ]
    assert all(x.turn == c.HISTORY_TURN for x in history)
    assert all(item.id.startswith("history-") for item in completed[:2])
    shouted = c.history(started, prepare=lambda m: m.model_copy(update={"message": "X"}))
    texts = [x.item for x in shouted if isinstance(x, n.ItemCompleted)]
    assert isinstance(texts[0], k.UserMessageItem) and texts[0].text == "X"


def test_client_projection_elicitation_carries_its_form() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    form = ev.ElicitationRequestEvent(
        server_name="s", id="e1", message="name?", requested_schema=schema
    )
    link = ev.ElicitationRequestEvent(
        server_name="s", id="e2", message="sign in", mode="url", url="https://x.test/login"
    )
    assert Projection().feed_msg("1", form) == [
        n.ElicitationRequested("1", "s", "e1", "name?", "form", schema)
    ]
    assert Projection().feed_msg("1", link) == [
        n.ElicitationRequested("1", "s", "e2", "sign in", "url", None, "https://x.test/login")
    ]
