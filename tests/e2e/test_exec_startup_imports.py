"""Start-up (issue 29): a `codex exec` turn that calls no tool loads no tool implementation.

The first model request needs the tools' specs, not the code that runs them (commands,
sandboxing, patches, the automatic reviewer, `/undo` snapshots): those load when a tool is
first called. The probe runs the real console-script dispatch in a fresh interpreter against
the scripted model server and lists what was loaded once the turn ended.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tests.support.fresh_python import python_output
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

LOADED_ONLY_FOR_TOOLS = (
    "codex_core.apply_patch.apply",
    "codex_core.apply_patch.parser",
    "codex_core.auto_review.reviewer",
    "codex_core.exec.pty_process",
    "codex_core.exec.sandbox",
    "codex_core.exec.spawn",
    "codex_core.safety",
    "codex_core.stdin_approval",
    "codex_core.tools.patch",
    "codex_core.tools.shell",
    "codex_core.tools.unified_exec",
    "codex_core.command_safety",
    "codex_core.execpolicy.parser",
)
"""Modules a plain answer's turn must not load (the snapshot's git code loads in its thread;
the rules parser only when CODEX_HOME has a rules file, `command_safety` when a command is
matched against the rules)."""
ONLY_FOR_CLIENTS = ("codex_core.items.client", "codex_tui.exec.review")
"""The interactive client's projection (the TUI's): exec renders the plain projection; the
review command's module (a plain exec only asks `review_words` whether it is one)."""
NEVER_IN_EXEC = (
    "textual",
    "codex_tui.app",
    "codex_core.servers",
    "mcp.",
    "xml.",
    "difflib",
    "httpx",
    "httpcore",
    "anyio",
    "urllib.request",
    "pydantic",
    "pydantic_core",
)
"""What exec never needs without MCP servers: the TUI, the protocol servers, the MCP SDK's
modules (`mcp` itself is only registered, see `codex_core.mcp`), the `xml` packages (the
environment context escapes its three characters itself), difflib (no patch applied), an HTTP
stack beyond h11 (the model client's own `codex_core.client.http1`: httpx, httpcore, anyio
and `urllib.request` are the MCP SDK's, doctor's and oauth's; a module blocked with None, as the
console script blocks `httpx._main`, is not loaded), pydantic (the configuration and the
protocol are light models, `codex_core.lite`)."""
NOT_WITHOUT_STATE_DB = ("sqlite3",)
"""Loaded only to write state_5.sqlite, which the probe's CODEX_HOME does not have."""


def _probe(code: str, cwd: Path, env: dict[str, str]) -> Any:
    """Run `code` in a fresh interpreter; what it printed last, as JSON."""
    return json.loads(python_output(code, cwd=cwd, env=env).splitlines()[-1])


def _loaded_after_exec(server: ModelServer, home: Path, cwd: Path, *flags: str) -> list[str]:
    argv = ["codex", "exec", "--skip-git-repo-check", *server.cli_flags(), *flags, "hi"]
    probe = (
        "import contextlib, io, json, sys\n"
        f"sys.argv = {argv!r}\n"
        "from codex_tui.entry import dispatch\n"  # main() would leave through os._exit
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    code = dispatch()\n"
        "print(json.dumps([code, sorted(k for k, v in sys.modules.items() if v is not None)]))\n"
    )
    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-test"}
    code, modules = _probe(probe, cwd, env)
    assert code == 0
    refused = (*NEVER_IN_EXEC, *NOT_WITHOUT_STATE_DB)
    stand_in = "pydantic.plugin._loader"  # codex_core/__init__'s "no plugins" module, not pydantic
    never = [m for m in modules if (m in refused or m.startswith(refused)) and m != stand_in]
    unneeded = [m for m in (*LOADED_ONLY_FOR_TOOLS, *ONLY_FOR_CLIENTS) if m in modules]
    return unneeded + never


def test_exec_startup_plain_turn_loads_no_tool_implementation(tmp_path: Path) -> None:
    home, cwd = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    cwd.mkdir()
    with ModelServer([turn(message("hello"))]) as server:
        loaded = _loaded_after_exec(server, home, cwd)
        request = server.requests[0].body
    assert loaded == []
    # …and the specs of those tools were offered all the same.
    offered = {tool.get("name") for tool in request["tools"]}
    assert {"exec_command", "write_stdin", "apply_patch"} <= offered


def test_exec_startup_config_loads_without_the_protocol(tmp_path: Path) -> None:
    """Loading and validating the configuration (done before the session's modules load)
    imports no module of `codex_core.protocol`: its types live in `codex_core.policies`."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(
        'model = "m"\napproval_policy = "never"\nsandbox_mode = "workspace-write"\n'
        'model_reasoning_effort = "high"\n[model_providers.p]\nname = "p"\n',
        encoding="utf-8",
    )
    probe = (
        "import json, sys\n"
        "from codex_core.config import load_config\n"
        "config = load_config(None, ['model_reasoning_summary=\"concise\"'])\n"
        "print(json.dumps([config.sandbox_policy.mode, config.model_reasoning_summary,"
        " sorted(m for m in sys.modules if m.startswith('codex_core.protocol'))]))\n"
    )
    env = {**os.environ, "CODEX_HOME": str(home)}
    assert _probe(probe, tmp_path, env) == ["workspace-write", "concise", []]
