"""Which compile-cache table each command loads (codex_tui.entry.cache_kind)."""

from __future__ import annotations

from codex_tui.cli.main import BUILTIN, PASSTHROUGH, SERVERS, UNSUPPORTED
from codex_tui.entry import CACHE_KINDS, OTHER_COMMANDS, cache_kind


def test_every_cli_command_is_sorted_into_a_table() -> None:
    names = set(BUILTIN) | set(PASSTHROUGH) | set(SERVERS) | set(UNSUPPORTED)
    tui = {"resume", "fork"}
    assert OTHER_COMMANDS == names - tui - set(CACHE_KINDS)


def test_the_tui_has_its_own_table_and_other_commands_share_main() -> None:
    assert cache_kind([]) == "tui"
    assert cache_kind(["-a", "on-request", "say hi"]) == "tui"
    assert cache_kind(["fix the build"]) == "tui"
    assert cache_kind(["resume", "--last"]) == "tui"
    assert cache_kind(["fork"]) == "tui"
    assert cache_kind(["exec", "hi"]) == "exec"
    assert cache_kind(["app-server"]) == "app-server"
    assert cache_kind(["login", "status"]) == "main"
    assert cache_kind(["mcp", "list"]) == "main"
