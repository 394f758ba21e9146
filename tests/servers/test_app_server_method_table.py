"""The app-server's request table: the rarely called methods' modules are not imported
before a server answers its first request, and load on first lookup in the table's order."""

from __future__ import annotations

import json

from tests.support.fresh_python import python_output

LAZY = [
    "codex_core.servers.app_server.goal_methods",
    "codex_core.servers.app_server.thread_admin",
    "codex_core.servers.app_server.config_read",
    "codex_core.servers.app_server.extensions",
    # the TUI's methods and the messages only hooks or the TUI's extensions send
    "codex_core.servers.app_server.tui_methods",
    "codex_core.servers.app_server.mcp_status",
    "codex_core.servers.app_server.model_tui",
    "codex_core.servers.app_server.model_extensions",
    # the message history's methods (a TUI's first turn asks for the metadata)
    "codex_core.servers.app_server.history_methods",
    # the queue's methods, its wire models and SQLite (a thread's start only asks whether a
    # queue file exists); the session listing (thread/list, thread/read)
    "codex_core.servers.app_server.queue_methods",
    "codex_core.servers.app_server.queue_models",
    "codex_core.servers.app_server.queue_store",
    "sqlite3",
    "codex_core.frontend.sessions",
]


def test_the_stdio_server_does_not_import_rarely_called_methods_before_its_first_request() -> None:
    script = (
        "import json, sys\n"
        "from codex_core.servers.app_server.transport import serve_stdio\n"
        f"print(json.dumps([name for name in {LAZY!r} if name in sys.modules]))\n"
    )
    assert json.loads(python_output(script)) == []


def test_a_lazy_entry_loads_on_lookup_and_keeps_its_place() -> None:
    from codex_core.servers.app_server.method_tables import METHODS, SERVED
    from codex_core.servers.app_server.model_goals import ThreadGoalGetParams

    names = list(METHODS)
    params, handler = METHODS["thread/goal/get"]
    assert params is ThreadGoalGetParams and callable(handler)
    assert list(METHODS) == names  # loading kept the order
    assert SERVED["account/read"][0].__name__ == "GetAccountParams"
    assert "thread/queue/add" in SERVED and "thread/queue/add" not in METHODS


def test_the_tui_methods_load_on_first_call_under_their_names() -> None:
    from codex_core.servers.app_server.method_tables import SERVED, TUI_METHOD_NAMES
    from codex_core.servers.app_server.model_tui import BackgroundMessageNotification
    from codex_core.servers.app_server.server import TUI_ONLY
    from codex_core.servers.app_server.tui_methods import TUI_METHODS

    assert list(TUI_METHOD_NAMES) == list(TUI_METHODS)
    names = list(SERVED)
    assert SERVED["thread/undo"] == TUI_METHODS["thread/undo"]
    assert list(SERVED) == names
    assert TUI_ONLY == {BackgroundMessageNotification.METHOD}


def test_the_history_and_queue_methods_load_on_first_call_under_their_names() -> None:
    from codex_core.servers.app_server.history_methods import HISTORY_METHODS
    from codex_core.servers.app_server.method_tables import (
        HISTORY_METHOD_NAMES,
        QUEUE_METHOD_NAMES,
        SERVED,
    )
    from codex_core.servers.app_server.queue_methods import QUEUE_METHODS

    assert list(HISTORY_METHOD_NAMES) == list(HISTORY_METHODS)
    assert list(QUEUE_METHOD_NAMES) == list(QUEUE_METHODS)
    names = list(SERVED)
    assert SERVED["history/metadata/read"] == HISTORY_METHODS["history/metadata/read"]
    assert SERVED["thread/queue/list"] == QUEUE_METHODS["thread/queue/list"]
    assert list(SERVED) == names
    # the order clients see in an unknown method's error: the queue's, the TUI's, the history's
    assert names[-len(HISTORY_METHODS) :] == list(HISTORY_METHODS)
    assert names.index("thread/queue/start") < names.index("review/start")
