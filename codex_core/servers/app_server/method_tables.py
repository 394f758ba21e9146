"""The app-server's method tables: what each method's params parse into and which handler
answers it (`handlers` holds the thread and turn methods; the rarely called groups load their
modules on their first call)."""

from __future__ import annotations

from codex_core.servers.app_server import model_methods as m
from codex_core.servers.app_server.handlers import (
    fuzzy_file_search,
    initialize,
    model_list,
    thread_archive,
    thread_compact,
    thread_fork,
    thread_list,
    thread_read,
    thread_resume,
    thread_start,
    turn_interrupt,
    turn_start,
)
from codex_core.servers.app_server.method_table import Entry, Loader, MethodTable


def _admin() -> dict[str, Entry]:
    from codex_core.servers.app_server import model_admin as a
    from codex_core.servers.app_server import thread_admin as admin

    return {
        "thread/unarchive": (m.ThreadIdParams, admin.thread_unarchive),
        "thread/name/set": (a.ThreadSetNameParams, admin.thread_set_name),
        "turn/steer": (a.TurnSteerParams, admin.turn_steer),
        "account/read": (a.GetAccountParams, admin.account_read),
        "account/logout": (a.GetAccountParams, admin.account_logout),
        "account/login/start": (a.LoginAccountParams, admin.account_login_start),
        "account/login/cancel": (a.CancelLoginAccountParams, admin.account_login_cancel),
    }


def _goals() -> dict[str, Entry]:
    from codex_core.servers.app_server import goal_methods as goals
    from codex_core.servers.app_server import model_goals as g

    return {
        "thread/goal/get": (g.ThreadGoalGetParams, goals.thread_goal_get),
        "thread/goal/set": (g.ThreadGoalSetParams, goals.thread_goal_set),
        "thread/goal/clear": (g.ThreadGoalClearParams, goals.thread_goal_clear),
    }


def _config_read() -> dict[str, Entry]:
    from codex_core.servers.app_server import config_read as c

    return {
        "config/read": (c.ConfigReadParams, c.config_read),
        "configRequirements/read": (c.ConfigRequirementsReadParams, c.config_requirements_read),
    }


def _extensions() -> dict[str, Entry]:
    from codex_core.servers.app_server import extensions
    from codex_core.servers.app_server import model_extensions as x

    return {
        "hooks/list": (x.HooksListParams, extensions.hooks_list),
        "skills/list": (x.SkillsListParams, extensions.skills_list),
    }


_TABLE: list[tuple[str, Entry | Loader]] = [
    ("initialize", (m.InitializeParams, initialize)),
    ("thread/start", (m.ThreadStartParams, thread_start)),
    ("thread/resume", (m.ThreadResumeParams, thread_resume)),
    ("thread/fork", (m.ThreadForkParams, thread_fork)),
    ("thread/list", (m.ThreadListParams, thread_list)),
    ("thread/read", (m.ThreadReadParams, thread_read)),
    ("thread/archive", (m.ThreadIdParams, thread_archive)),
    ("thread/unarchive", _admin),
    ("thread/name/set", _admin),
    ("thread/compact/start", (m.ThreadIdParams, thread_compact)),
    ("thread/goal/get", _goals),
    ("thread/goal/set", _goals),
    ("thread/goal/clear", _goals),
    ("turn/start", (m.TurnStartParams, turn_start)),
    ("turn/interrupt", (m.TurnInterruptParams, turn_interrupt)),
    ("turn/steer", _admin),
    ("model/list", (m.ModelListParams, model_list)),
    ("fuzzyFileSearch", (m.FuzzyFileSearchParams, fuzzy_file_search)),
    ("config/read", _config_read),
    ("configRequirements/read", _config_read),
    ("account/read", _admin),
    ("account/logout", _admin),
    ("account/login/start", _admin),
    ("account/login/cancel", _admin),
    ("hooks/list", _extensions),
    ("skills/list", _extensions),
]
METHODS = MethodTable(_TABLE)
"""The methods this server implements, in the order `generate-json-schema` lists them (the
rarely called ones load their modules on first call)."""


def _tui() -> dict[str, Entry]:
    from codex_core.servers.app_server.tui_methods import TUI_METHODS

    return dict(TUI_METHODS)


def _queue() -> dict[str, Entry]:
    from codex_core.servers.app_server.queue_methods import QUEUE_METHODS

    return dict(QUEUE_METHODS)


def _history() -> dict[str, Entry]:
    from codex_core.servers.app_server.history_methods import HISTORY_METHODS

    return dict(HISTORY_METHODS)


QUEUE_METHOD_NAMES = (
    "thread/queue/add",
    "thread/queue/list",
    "thread/queue/update",
    "thread/queue/delete",
    "thread/queue/reorder",
    "thread/queue/start",
)
"""`queue_methods.QUEUE_METHODS`' names, in its order: the module, the queue's wire models
and SQLite load on the first call of one of them."""
TUI_METHOD_NAMES = (
    "review/start",
    "mcpServerStatus/list",
    "thread/undo",
    "thread/backgroundTerminals/list",
    "thread/backgroundTerminals/terminate",
    "thread/backgroundTerminals/clean",
)
"""`tui_methods.TUI_METHODS`' names, in its order: the module (and the models and MCP status
code it imports) loads on the first call of one of them."""
HISTORY_METHOD_NAMES = ("history/metadata/read", "history/entry/read", "history/append")
"""`history_methods.HISTORY_METHODS`' names: a TUI launched with a prompt asks for the
history's metadata before its first turn, so they load apart from the TUI's other methods."""

SERVED = MethodTable(
    [
        *_TABLE,
        *((name, _queue) for name in QUEUE_METHOD_NAMES),
        *((name, _tui) for name in TUI_METHOD_NAMES),
        *((name, _history) for name in HISTORY_METHOD_NAMES),
    ]
)
"""What a connection answers: METHODS, the experimental ones and those the TUI needs (left
out of the schema)."""
