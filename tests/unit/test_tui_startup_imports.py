"""What the TUI loads before its app starts: nothing a launch with a prompt does not show
before its answer (issue 29). The Markdown renderer is imported in a thread once an answer's
first plain words are on the screen; the trust, API-key, picker, approval and elicitation
screens, `/diff`'s snapshot code and tomlkit when used."""

from __future__ import annotations

import json

from tests.support.fresh_python import python_output

LATER = [
    "tomlkit",
    "markdown_it",
    "rich.markdown",
    "codex_tui.app.markdown_render",
    "codex_tui.app.screens.trust",
    "codex_tui.app.screens.api_key",
    "codex_tui.app.screens.resume_picker",
    "codex_tui.app.screens.approval",
    "codex_tui.app.screens.elicitation",
    "codex_core.git_snapshot",
    "codex_core.frontend.sessions",
    "codex_core.rollout.listing",
    "sqlite3",
]


def test_the_tui_starts_its_app_without_what_it_shows_later() -> None:
    code = (
        "import json, sys\n"
        "sys.modules.setdefault('httpx._main', None)\n"
        "import codex_tui.cli.tui, codex_core.config.loader, codex_tui.app.real_boot\n"
        "import codex_tui.app.codex_app, codex_tui.app.app_server_core\n"
        "from codex_core.config import ConfigOverrides, load_config\n"
        "config = load_config(ConfigOverrides(), [])\n"
        "assert codex_tui.cli.tui._resume_path(config, 'none', None, False) is None\n"
        f"print(json.dumps([name for name in {LATER!r} if name in sys.modules]))\n"
    )
    assert json.loads(python_output(code)) == []


def test_the_markdown_renderer_loads_once_in_a_thread_the_exit_waits_for() -> None:
    code = (
        "import sys, threading\n"
        "from codex_tui.app.widgets.cells import agent_cell\n"
        "agent_cell.load_markdown_meanwhile()\n"
        "agent_cell.load_markdown_meanwhile()\n"
        "loaders = [t for t in threading.enumerate() if t.name == 'markdown-import']\n"
        "assert len(loaders) <= 1 and not any(t.daemon for t in loaders), loaders\n"
        "for t in loaders: t.join(30)\n"
        "print('codex_tui.app.markdown_render' in sys.modules)\n"
    )
    assert python_output(code).strip() == "True"
