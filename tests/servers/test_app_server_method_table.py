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
]


def test_the_stdio_server_does_not_import_rarely_called_methods_before_its_first_request() -> None:
    script = (
        "import json, sys\n"
        "from codex_core.servers.app_server.transport import serve_stdio\n"
        f"print(json.dumps([name for name in {LAZY!r} if name in sys.modules]))\n"
    )
    assert json.loads(python_output(script)) == []


def test_a_lazy_entry_loads_on_lookup_and_keeps_its_place() -> None:
    from codex_core.servers.app_server.handlers import METHODS, SERVED
    from codex_core.servers.app_server.model_goals import ThreadGoalGetParams

    names = list(METHODS)
    params, handler = METHODS["thread/goal/get"]
    assert params is ThreadGoalGetParams and callable(handler)
    assert list(METHODS) == names  # loading kept the order
    assert SERVED["account/read"][0].__name__ == "GetAccountParams"
    assert "thread/queue/add" in SERVED and "thread/queue/add" not in METHODS


def test_the_tui_methods_load_on_first_call_under_their_names() -> None:
    from codex_core.servers.app_server.handlers import SERVED, TUI_METHOD_NAMES
    from codex_core.servers.app_server.model_tui import BackgroundMessageNotification
    from codex_core.servers.app_server.server import TUI_ONLY
    from codex_core.servers.app_server.tui_methods import TUI_METHODS

    assert list(TUI_METHOD_NAMES) == list(TUI_METHODS)
    names = list(SERVED)
    assert SERVED["history/metadata/read"] == TUI_METHODS["history/metadata/read"]
    assert list(SERVED) == names
    assert TUI_ONLY == {BackgroundMessageNotification.METHOD}
