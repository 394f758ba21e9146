"""Prepare the wire models a thread's messages use, once per process (issue 29).

The wire models are light models (`codex_core.lite`): each reads its fields from its
annotations and compiles its checks on first use. A server's first `thread/start` and
`turn/start` use the items, `Turn`, `Thread` and their notifications; preparing them
together (from the thread that starts the server's work, while the client waits anyway)
keeps that work off the first turn's way.
"""

from __future__ import annotations

import threading
from typing import get_args

from codex_core.lite import Model as BaseModel
from codex_core.lite.checks import spec_of

_lock = threading.Lock()
_state = {"built": False}


def build_thread_models() -> None:
    """Build the models of a thread, its turns, items and their notifications (the first
    call builds them; later calls, and calls while another thread builds them, wait only
    for that)."""
    if _state["built"]:
        return
    with _lock:
        if _state["built"]:
            return
        for model in _thread_models():
            _build(model)
        _state["built"] = True


def _thread_models() -> list[type[BaseModel]]:
    from codex_core.servers.app_server import model_items as w
    from codex_core.servers.app_server import model_methods as m
    from codex_core.servers.app_server import model_notify as n
    from codex_core.servers.app_server import model_thread as t

    union = get_args(w.ThreadItem)[0]  # Annotated[A | B | …, Field(discriminator=…)]
    return [
        *get_args(union),
        t.Turn,
        t.Thread,
        m.ThreadSessionResponse,
        m.TurnStartResponse,
        n.ThreadStartedNotification,
        n.ThreadStatusChangedNotification,
        n.TurnStartedNotification,
        n.TurnCompletedNotification,
        n.ItemStartedNotification,
        n.ItemCompletedNotification,
        n.AgentMessageDeltaNotification,
    ]


def _build(model: type[BaseModel]) -> None:
    spec_of(model)
