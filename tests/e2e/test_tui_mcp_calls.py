"""The real TUI in a pty: MCP tool calls come over the app-server wire (`mcpToolCall` items)
as their cells — live, and replayed when the session is resumed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_tui_commands import quit_app, send_line
from tests.e2e.test_tui_session import spawn
from tests.mcp.conftest import namespace_call, stdio_entry
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e


def test_tui_shows_mcp_calls_live_and_resumed(
    codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    (codex_home / "config.toml").write_text(stdio_entry("probe"))
    project = tmp_path / "project"
    project.mkdir()
    model_server.add(
        namespace_call("mcp__probe", "echo", {"text": "hi there"}, "c1"),
        turn(message("Echoed it.")),
    )
    flags = ["-a", "never", "-s", "read-only", *model_server.cli_flags()]
    term = spawn(codex_bin, flags, project)
    term.wait_for("Ask Codex to do anything", timeout=60)
    send_line(term, "echo something")
    term.wait_for("Called probe.echo", timeout=60)
    term.wait_for("Echoed it.", timeout=60)
    quit_app(term)

    again = spawn(codex_bin, [*flags, "resume", "--last"], project)
    again.wait_for("Echoed it.", timeout=60)
    again.wait_for("Called probe.echo")
    tail = quit_app(again)
    assert "Traceback" not in tail
