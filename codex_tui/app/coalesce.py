"""Preparing a batch of notices for the screen: start-up warnings set aside, runs of
streamed deltas merged (and made printable) so each frame renders once, and every other
notice's text made printable (`printable_notice`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

from codex_core.items import client as c
from codex_core.items import notices as n
from codex_core.lite import is_model
from codex_core.terminal_text import printable, printable_event

Value = TypeVar("Value")

STARTUP_TURN = "0"
"""The submission of the session's start: its warnings (config keys, MCP servers) wait
behind the footer's badge instead of joining the transcript."""


def split_startup_warnings(
    notices: list[c.ClientNotice],
) -> tuple[list[str], list[c.ClientNotice]]:
    """The start-up warnings' texts, and the other notices."""
    warnings: list[str] = []
    rest: list[c.ClientNotice] = []
    for notice in notices:
        if isinstance(notice, n.TurnWarning) and notice.turn == STARTUP_TURN:
            warnings.append(notice.message)
        else:
            rest.append(notice)
    return warnings, rest


def coalesce(notices: list[c.ClientNotice]) -> list[c.ClientNotice]:
    """Runs of one answer's deltas, one reasoning part's, or one command's output merged into
    one delta each, in order; each delta's text made `printable` once merged (an escape
    sequence split across deltas is seen whole)."""
    out: list[c.ClientNotice] = []
    run: list[str] = []
    for notice in notices:
        last = out[-1] if out else None
        if run and _continues(last, notice):
            run.append(_text(notice))
            out[-1] = notice  # the run's fields are its last delta's (a command's stream)
            continue
        if run:
            out[-1] = _with_text(out[-1], "".join(run))
            run = []
        out.append(notice)
        if isinstance(notice, _DELTAS):
            run = [_text(notice)]
    if run:
        out[-1] = _with_text(out[-1], "".join(run))
    return out


_DELTAS = (n.AgentMessageDelta, n.ReasoningDelta, n.CommandOutputDelta)


def _continues(last: c.ClientNotice | None, notice: c.ClientNotice) -> bool:
    match last, notice:
        case n.AgentMessageDelta(), n.AgentMessageDelta():
            return last.item_id == notice.item_id
        case n.ReasoningDelta(), n.ReasoningDelta():
            return last.item_id == notice.item_id and last.index == notice.index
        case n.CommandOutputDelta(), n.CommandOutputDelta():
            return last.item_id == notice.item_id
        case _:
            return False


def _text(notice: c.ClientNotice) -> str:
    if isinstance(notice, n.CommandOutputDelta):
        return notice.chunk
    assert isinstance(notice, n.AgentMessageDelta | n.ReasoningDelta)
    return notice.delta


def _with_text(notice: c.ClientNotice, text: str) -> c.ClientNotice:
    text = printable(text)
    match notice:
        case n.AgentMessageDelta():
            return n.AgentMessageDelta(notice.turn, notice.item_id, text)
        case n.ReasoningDelta():
            return n.ReasoningDelta(notice.turn, notice.item_id, notice.index, text)
        case n.CommandOutputDelta():
            return n.CommandOutputDelta(notice.turn, notice.item_id, notice.stream, text)
        case _:
            return notice


def printable_notice(notice: Value) -> Value:
    """A copy of `notice` (a notice, an item, or a value in one) whose shown strings are
    `printable`: model text and command output never reach the terminal raw. Identifiers
    (`turn`, `id`, `item_id`, `…_id`) stay as they are: they are matched, not shown."""
    if not dataclasses.is_dataclass(notice) or isinstance(notice, type):
        return notice
    update = {
        f.name: _clean(getattr(notice, f.name))
        for f in dataclasses.fields(notice)
        if not (f.name in _ID_FIELDS or f.name.endswith("_id")) and _dirty(getattr(notice, f.name))
    }
    return dataclasses.replace(notice, **update) if update else notice


_ID_FIELDS = frozenset({"turn", "id", "item_id"})


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return printable(value)
    if is_model(value):
        return printable_event(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return printable_notice(value)
    if isinstance(value, tuple):
        return tuple(_clean(v) for v in value)
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, Mapping):
        return {(printable(k) if isinstance(k, str) else k): _clean(v) for k, v in value.items()}
    return value


def _dirty(value: Any) -> bool:
    """Whether `value` holds a string `printable` changes."""
    if isinstance(value, str):
        return printable(value) is not value
    if is_model(value) or (dataclasses.is_dataclass(value) and not isinstance(value, type)):
        return any(_dirty(v) for v in vars(value).values())
    if isinstance(value, tuple | list):
        return any(_dirty(v) for v in value)
    if isinstance(value, Mapping):
        return any(_dirty(k) or _dirty(v) for k, v in value.items())
    return False
