"""Structure: frontends render the item projection (`codex_core.items`), not the raw events.

The test walks the imports of every frontend module (the TUI and exec, the protocol servers,
the rollout writer). A module that renders the projection imports `codex_core.items` and none
of the event union; a module still importing the event union must be on `NOT_YET_PORTED`,
which only shrinks: an entry that no longer imports events fails until it is removed.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.fresh_python import python_output

REPO = Path(__file__).resolve().parents[2]
FRONTEND_ROOTS = ("codex_tui", "codex_core/servers", "codex_core/rollout")
EVENT_MODULES = frozenset(
    {
        "codex_core.protocol.events",
        "codex_core.protocol.event_groups",
        "codex_core.protocol.tool_events",
        "codex_core.protocol.hook_events",
    }
)

PORTED = frozenset(
    {
        "codex_tui/exec/jsonl.py",
        "codex_tui/exec/human.py",
        "codex_core/servers/acp/updates.py",
        "codex_tui/app/transcript_log.py",
        "codex_tui/exec/run.py",
        "codex_core/servers/acp/permission.py",
        "codex_core/servers/app_server/translate.py",
        "codex_core/servers/app_server/item_wire.py",
        "codex_core/rollout/layout.py",
        "codex_core/rollout/item_record.py",
        "codex_tui/app/screens/chat.py",
        "codex_tui/app/screens/chat_items.py",
        "codex_tui/app/screens/chat_cells.py",
        "codex_tui/app/screens/chat_processes.py",
        "codex_tui/app/screens/chat_tools.py",
        "codex_tui/app/screens/chat_start.py",
        "codex_tui/app/screens/chat_approvals.py",
        "codex_tui/app/screens/approval.py",
        "codex_tui/app/screens/elicitation.py",
        "codex_tui/app/widgets/cells/header_cell.py",
        "codex_tui/app/coalesce.py",
        "codex_tui/app/messages.py",
        "codex_tui/app/codex_app.py",
        "codex_tui/app/core.py",
        "codex_tui/app/event_pump.py",
        "codex_tui/app/item_state.py",
        "codex_tui/app/wire_items.py",
        "codex_tui/app/app_server_link.py",
        "codex_tui/app/app_server_ops.py",
        "codex_core/servers/acp/agent.py",
        "codex_core/servers/app_server/elicitation.py",
        "codex_core/servers/app_server/hub.py",
    }
)
"""Renderers of the projection."""

NOT_YET_PORTED: dict[str, str] = {}
"""Frontend modules still importing the event union, and what they do with it (none left: a
pump passes events to the projection typed as `codex_core.items.Event`, and what it picks out
— approvals, MCP servers' questions, a thread's preview, its configuration, its end — are the
projection's values)."""


def event_imports(path: Path) -> list[str]:
    """What `path` imports of the event union (the `protocol` namespace counts whole)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [alias.name for alias in node.names]
            if node.module in EVENT_MODULES:
                found.extend(names)
            elif node.module == "codex_core.protocol":
                found.extend(n for n in names if n.endswith("Event") or n == "EventMsg")
            elif node.module == "codex_core":
                found.extend(n for n in names if n == "protocol")
        elif isinstance(node, ast.Import):
            found.extend(a.name for a in node.names if a.name.startswith("codex_core.protocol"))
    return found


def imports_items(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module == "codex_core.items" or node.module.startswith("codex_core.items."):
                return True
            if node.module == "codex_core" and any(a.name == "items" for a in node.names):
                return True
    return False


def frontend_modules() -> list[str]:
    return sorted(
        str(path.relative_to(REPO))
        for root in FRONTEND_ROOTS
        for path in (REPO / root).rglob("*.py")
    )


def test_item_projection_ported_frontends_import_items_not_events() -> None:
    for module in sorted(PORTED):
        path = REPO / module
        assert imports_items(path), f"{module} does not render codex_core.items"
        assert event_imports(path) == [], f"{module} imports events: {event_imports(path)}"


def test_item_projection_only_listed_frontends_still_import_events() -> None:
    importing = {m for m in frontend_modules() if event_imports(REPO / m)}
    assert importing - set(NOT_YET_PORTED) == set(), "a frontend imports raw events anew"
    assert set(NOT_YET_PORTED) - importing == set(), "ported: remove it from NOT_YET_PORTED"


def test_item_projection_tui_screens_and_widgets_import_no_events() -> None:
    """The chat screen, its modals and its cells render notices only (the pump projects)."""
    for root in ("codex_tui/app/screens", "codex_tui/app/widgets"):
        for path in sorted((REPO / root).rglob("*.py")):
            assert event_imports(path) == [], f"{path} imports events: {event_imports(path)}"


def test_item_projection_imports_light() -> None:
    code = (
        "import sys, codex_core.items\n"
        "heavy = {'httpx', 'textual', 'rich', 'acp'} & {m.split('.')[0] for m in sys.modules}\n"
        "print(sorted(heavy))"
    )
    assert python_output(code).strip() == "[]"
