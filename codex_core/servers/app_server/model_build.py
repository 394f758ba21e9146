"""Build the wire models a thread's messages use, leaves first, once per process (issue 29).

Every wire model defers its validator and serializer to its first use (`defer_build`). Built
on demand, a model whose fields hold other models generates their schemas again inside its
own, so a server's first `thread/start` and `turn/start` generated the thread-item union five
times over (`Thread`, `TurnStartResponse`, `Turn` and the two item notifications: 10-25 ms
CPU each). Built leaves first — the items, then `Turn`, then what holds them — each model
reuses the schemas already built: ~80 -> ~25 ms CPU on the way to a thread's first delta.
The validators and serializers are the same either way.
"""

from __future__ import annotations

import threading
from typing import get_args

from pydantic import BaseModel

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
    # Resolved in the model's module (its annotations are strings): this frame's locals are
    # part of the namespace `model_rebuild` looks names up in, so they name no wire type.
    model.model_rebuild()
