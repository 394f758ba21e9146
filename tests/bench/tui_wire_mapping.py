"""Benchmark: the TUI's side of a streamed answer without the screen — 20,000 unmerged
`item/agentMessage/delta` messages (and the item's start and end) through `WireItems` and the
event pump's per-frame preparation (printable, deltas merged), in batches of 500 messages.

Run: `.venv/bin/python tests/bench/tui_wire_mapping.py [ROUNDS]` (prints the best CPU time).
Measured when the mapping replaced the wire → events → projection round trip (issue 24):
404 ms before, 101 ms after, on the same machine.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

THREAD = "thread"
DELTAS = 20_000


def messages() -> list[tuple[str, dict[str, Any]]]:
    """One turn streaming a DELTAS-delta answer."""
    words = [f"w{i} " for i in range(DELTAS)]
    item = {"id": "a", "type": "agentMessage", "text": ""}
    return [
        ("turn/started", {"threadId": THREAD, "turn": {"id": "t1"}}),
        ("item/started", {"threadId": THREAD, "item": item}),
        *[
            ("item/agentMessage/delta", {"threadId": THREAD, "itemId": "a", "delta": word})
            for word in words
        ],
        ("item/completed", {"threadId": THREAD, "item": {**item, "text": "".join(words)}}),
        ("turn/completed", {"threadId": THREAD, "turn": {"id": "t1", "status": "completed"}}),
    ]


def one_round(wire_messages: list[tuple[str, dict[str, Any]]]) -> float:
    """CPU seconds to map and prepare the messages."""
    from codex_tui.app.event_pump import prepare
    from codex_tui.app.wire_items import WireItems

    started = time.process_time()
    wire = WireItems(thread_id=THREAD)
    per_message = [notices for m, p in wire_messages if (notices := wire.notification(m, p))]
    for i in range(0, len(per_message), 500):
        prepare([notice for notices in per_message[i : i + 500] for notice in notices])
    return time.process_time() - started


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    wire_messages = messages()
    one_round(wire_messages)  # imports and warm-up
    best = min(one_round(wire_messages) for _ in range(rounds))
    print(f"{DELTAS} unmerged deltas through wire_items + prepare: {best * 1000:.0f} ms CPU")


if __name__ == "__main__":
    main()
