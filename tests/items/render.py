"""Render one event stream through each frontend, as the text a client of it receives.

Random ids (UUIDs, `msg_…`/`rs_…` item ids) become `<id1>`, `<id2>`, … in order of first
appearance, and wall-clock times become 0, so a golden file compares what a frontend emits,
not when: everything else is byte for byte what the frontend writes.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

from codex_core import __version__
from codex_core.config import Config
from codex_core.protocol import Event, TaskStartedEvent, UserMessageEvent
from codex_core.rollout.layout import Layout
from codex_core.servers.acp.updates import UpdateBuilder
from codex_core.servers.app_server.elicitation import METHOD as ELICITATION
from codex_core.servers.app_server.translate import ApprovalAsk, ElicitationAsk, Translator
from codex_tui.app.transcript_log import TranscriptLog
from codex_tui.exec.human import HumanProcessor
from codex_tui.exec.jsonl import JsonlProcessor
from tests.tui.fake_core import NoticeFeed

FIXED_NOW = 1_790_000_000.0
"""The clock the rollout writer is given (2026-09-21T…Z)."""
_RANDOM_ID = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:msg|rs)_[0-9a-f]{12}"
)
_CLOCK_KEYS = frozenset({"startedAtMs", "completedAtMs", "emittedAtMs", "startedAt", "completedAt"})


def stable_ids(text: str) -> str:
    """`text` with each distinct random id replaced by `<idN>`, numbered as they appear."""
    seen: dict[str, str] = {}

    def name(match: re.Match[str]) -> str:
        return seen.setdefault(match.group(0), f"<id{len(seen) + 1}>")

    return _RANDOM_ID.sub(name, text)


def _no_clock(value: Any) -> Any:
    """`value` with wall-clock fields zeroed (a turn's `durationMs` is one too)."""
    if isinstance(value, list):
        return [_no_clock(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: 0 if k in _CLOCK_KEYS and v is not None else _no_clock(v) for k, v in value.items()}
    if "itemsView" in out and out.get("durationMs") is not None:  # a Turn
        out["durationMs"] = 0
    return out


def exec_jsonl(events: list[Event]) -> str:
    """What `codex exec --json` prints for the stream."""
    out = io.StringIO()
    processor = JsonlProcessor(out)
    for event in events:
        processor.handle(event)
    return out.getvalue()


def exec_human(events: list[Event]) -> str:
    """What `codex exec` prints for a person (colours on), one `[stream, line]` a line."""
    config = SimpleNamespace(
        cwd=Path("/work/proj"),
        model="gpt-5.5",
        model_provider_id="mock",
        approval_policy="never",
        sandbox_policy=SimpleNamespace(mode="workspace-write"),
        model_reasoning_effort=None,
        model_reasoning_summary=None,
    )
    err, out = io.StringIO(), io.StringIO()
    human = HumanProcessor(cast(Config, config), "the prompt", out=out, err=err, color=True)
    for event in events:
        human.handle(event)
    printed = err.getvalue().replace(f"codex v{__version__}", "codex v<version>")
    lines = [["stderr", line] for line in printed.splitlines()]
    lines += [["stdout", line] for line in out.getvalue().splitlines()]
    return stable_ids("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))


def app_server(events: list[Event]) -> str:
    """The app-server's notifications and server requests for the stream, one a line.

    Each submission that starts a turn is begun as `turn/start` would begin it (a turn with
    no user message as a compaction, as `thread/compact/start` begins one).
    """
    with_user = {e.id for e in events if isinstance(e.msg, UserMessageEvent)}
    translator = Translator("thread")
    lines: list[str] = []
    for event in events:
        if isinstance(event.msg, TaskStartedEvent) and translator.turn_id_of(event.id) is None:
            translator.begin_turn(event.id, [], compact=event.id not in with_user)
        for out in translator.translate(event):
            if isinstance(out, ApprovalAsk):
                params = _no_clock(out.params.model_dump(mode="json"))
                line = {"request": out.params.METHOD, "params": params, "kind": out.kind}
            elif isinstance(out, ElicitationAsk):
                line = {"request": ELICITATION, "params": out.params, "kind": "elicitation"}
            else:
                line = {"method": out.METHOD, "params": _no_clock(out.model_dump(mode="json"))}
            lines.append(json.dumps(line, ensure_ascii=False))
    return stable_ids("".join(line + "\n" for line in lines))


def rollout_items(events: list[Event]) -> str:
    """The rollout lines a new (0.169-layout) session file records for the stream."""
    layout = Layout(next_ordinal=0, items=True, thread_id="thread", cwd="/work/proj")
    lines: list[str] = []
    for event in events:
        for line_type, payload in layout.event_lines(event, now=FIXED_NOW):
            lines.append(json.dumps({"type": line_type, "payload": payload}, ensure_ascii=False))
    return stable_ids("".join(line + "\n" for line in lines))


def acp_updates(events: list[Event]) -> str:
    """The ACP agent's `session/update`s for the stream (each update as the SDK sends it)."""
    builder = UpdateBuilder()
    lines: list[str] = []
    for event in events:
        for update in builder.updates(event):
            wire = update.model_dump(
                mode="json", by_alias=True, exclude_none=True, exclude_defaults=True
            )
            lines.append(json.dumps(wire, ensure_ascii=False))
    return stable_ids("".join(line + "\n" for line in lines))


def transcript_log(events: list[Event]) -> str:
    """The TUI's Ctrl+T transcript for the stream, each line as Textual markup (fed the
    notices the TUI's event pump yields)."""
    log = TranscriptLog()
    feed = NoticeFeed()
    for event in events:
        for notice in feed.project([event]):
            log.record(notice)
    lines = [json.dumps(line.markup, ensure_ascii=False) for line in log.lines]
    return stable_ids("".join(line + "\n" for line in lines))


FRONTENDS: dict[str, Callable[[list[Event]], str]] = {
    "exec_jsonl": exec_jsonl,
    "exec_human": exec_human,
    "app_server": app_server,
    "rollout_items": rollout_items,
    "acp": acp_updates,
    "transcript_log": transcript_log,
}
