"""`merge_deltas`: runs of deltas collapse to one event each, order and text kept."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from codex_core.protocol import (
    AgentMessageDeltaEvent,
    AgentReasoningDeltaEvent,
    Event,
    EventMsg,
    ExecCommandOutputDeltaEvent,
    TaskStartedEvent,
)
from codex_core.protocol.deltas import merge_deltas

_DELTA = st.one_of(
    st.builds(AgentMessageDeltaEvent, delta=st.text(max_size=3)),
    st.builds(AgentReasoningDeltaEvent, delta=st.text(max_size=3)),
    st.builds(
        ExecCommandOutputDeltaEvent,
        call_id=st.sampled_from(["a", "b"]),
        stream=st.sampled_from(["stdout", "stderr"]),
        chunk=st.text(max_size=3),
    ),
    st.builds(TaskStartedEvent),
)


def _kind(msg: EventMsg) -> tuple[str, str]:
    """What a run shares: the kind of delta, and for command output the command."""
    if isinstance(msg, ExecCommandOutputDeltaEvent):
        return (msg.type, msg.call_id)
    return (msg.type, "")


def _text(msg: EventMsg) -> str:
    if isinstance(msg, ExecCommandOutputDeltaEvent):
        return msg.chunk
    return getattr(msg, "delta", "")


@given(st.lists(_DELTA, max_size=30))
def test_merge_deltas_keeps_order_and_text(msgs: list[EventMsg]) -> None:
    events = [Event(id=str(i % 3), msg=msg) for i, msg in enumerate(msgs)]
    merged = merge_deltas(events)
    # Runs of one kind collapse to one event carrying their text, in order (one command's
    # stdout and stderr chunks form one run, as the TUI has always shown them).
    runs: list[tuple[tuple[str, str], str]] = []
    for event in events:
        kind = _kind(event.msg)
        if runs and runs[-1][0] == kind and kind[0] != "task_started":
            runs[-1] = (kind, runs[-1][1] + _text(event.msg))
        else:
            runs.append((kind, _text(event.msg)))
    assert [(_kind(e.msg), _text(e.msg)) for e in merged] == runs
