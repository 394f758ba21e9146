"""Event streams the golden tests render: recorded live sessions and replayed rollouts.

- `tests/fixtures/item_streams/*.jsonl`: live sessions against the scripted model server
  (`record_streams`), every event with the id of its submission.
- `tests/fixtures/rollouts_0169/*.jsonl` and `tests/fixtures/rollouts/*.jsonl`: the events
  a resume replays from each recorded rollout (`item_completed` lines read as the events they
  stand for). Replays carry no turn events, so each user message opens a turn (submission
  `t1`, `t2`, …) that ends before the next one, or with its `turn_aborted`.
"""

from __future__ import annotations

import json
from pathlib import Path

from codex_core.protocol import Event, TaskCompleteEvent, TaskStartedEvent, parse_event_msg
from codex_core.rollout.reader import read_rollout
from codex_core.rollout.replay import reconstruct

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LIVE = FIXTURES / "item_streams"
ROLLOUT_DIRS = (FIXTURES / "rollouts_0169", FIXTURES / "rollouts")


def live_stream(path: Path) -> list[Event]:
    """The events of one recorded session."""
    lines = path.read_text("utf-8").splitlines()
    return [Event.model_validate(json.loads(line)) for line in lines if line.strip()]


def replayed_stream(path: Path) -> list[Event]:
    """The events a resume replays from one rollout, bracketed into turns."""
    events: list[Event] = []
    turn = 0
    open_turn = False

    def close() -> None:
        nonlocal open_turn
        if open_turn:
            events.append(Event(id=f"t{turn}", msg=TaskCompleteEvent()))
        open_turn = False

    for payload in reconstruct(read_rollout(path)).events:
        msg = parse_event_msg(payload)
        if msg is None:
            continue
        if msg.type == "user_message":
            close()
            turn += 1
            open_turn = True
            events.append(Event(id=f"t{turn}", msg=TaskStartedEvent()))
        events.append(Event(id=f"t{turn}", msg=msg))
        if msg.type == "turn_aborted":
            open_turn = False
    close()
    return events


def stream_names() -> list[str]:
    """Every stream's name: `live-<scenario>` or `rollout-<session id>`."""
    names = [f"live-{p.stem}" for p in sorted(LIVE.glob("*.jsonl"))]
    for folder in ROLLOUT_DIRS:
        names.extend(f"rollout-{p.stem[-36:]}" for p in sorted(folder.glob("rollout-*.jsonl")))
    return names


def load_stream(name: str) -> list[Event]:
    """The events of the stream `name` (see `stream_names`)."""
    kind, _, rest = name.partition("-")
    if kind == "live":
        return live_stream(LIVE / f"{rest}.jsonl")
    for folder in ROLLOUT_DIRS:
        for path in folder.glob(f"rollout-*{rest}.jsonl"):
            return replayed_stream(path)
    raise LookupError(name)
