"""`merge_deltas` (the TUI's reading of app-server lines): runs of one item's deltas become
one delta, their text joined; nothing else changes or moves."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from codex_tui.app.app_server_connection import merge_deltas

_MESSAGE = st.one_of(
    st.builds(
        lambda item, delta: {
            "method": "item/agentMessage/delta",
            "params": {"itemId": item, "delta": delta},
        },
        st.sampled_from(["a", "b"]),
        st.text(max_size=3),
    ),
    st.builds(
        lambda item, index, delta: {
            "method": "item/reasoning/summaryTextDelta",
            "params": {"itemId": item, "summaryIndex": index, "delta": delta},
        },
        st.sampled_from(["r"]),
        st.integers(0, 1),
        st.text(max_size=3),
    ),
    st.just({"method": "turn/started", "params": {"turn": {"id": "t"}}}),
    st.just({"id": 1, "result": {}}),
)


def _key(message: dict[str, Any]) -> tuple[Any, ...]:
    params = message.get("params") or {}
    return (message.get("method"), params.get("itemId"), params.get("summaryIndex"))


@given(st.lists(_MESSAGE, max_size=30))
def test_merge_deltas_joins_runs_of_one_item(messages: list[dict[str, Any]]) -> None:
    runs: list[tuple[tuple[Any, ...], str | None]] = []
    for message in messages:
        key, delta = _key(message), (message.get("params") or {}).get("delta")
        if delta is not None and runs and runs[-1][0] == key and runs[-1][1] is not None:
            runs[-1] = (key, runs[-1][1] + delta)
        else:
            runs.append((key, delta))
    merged = merge_deltas(messages)
    assert [(_key(m), (m.get("params") or {}).get("delta")) for m in merged] == runs
