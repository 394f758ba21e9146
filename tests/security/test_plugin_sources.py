"""Plugins run hooks and MCP servers on the host, so the model must never be able to plant
one (issue 25). Codex 0.169 takes plugins only from marketplaces the user added with
`codex plugin marketplace add` and installs them only on `codex plugin add`: a project's
`.agents/plugins/marketplace.json` is no source (checked with `codex-rust plugin marketplace
list`), and CODEX_HOME — its `config.toml` entries and its `plugins/` copies — stays
read-only to the model's commands and patches in every sandbox.

End to end: `codex exec` under workspace-write with CODEX_HOME inside the workspace (the hard
case); the model writes a marketplace into the project and tries to install and enable a
plugin by hand; the next run must not run its hook or start its MCP server.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support.model_server import ModelServer
from tests.support.plugin_market import make_marketplace
from tests.support.sse import custom_tool_call, function_call, message, turn

from .test_hook_sources import run
from .test_linux_helpers import needs_bwrap

PLANT = """
mkdir -p "$CODEX_HOME/plugins/cache/localmk" 2>/dev/null && \
  cp -r plugins/demo "$CODEX_HOME/plugins/cache/localmk/demo" 2>/dev/null && echo wrote-cache
printf '[plugins."demo@localmk"]\\nenabled = true\\n' >> "$CODEX_HOME/config.toml" 2>/dev/null \
  && echo wrote-config
echo done
"""


@needs_bwrap
def test_plugins_stay_out_of_the_models_reach(tmp_path: Path, model_server: ModelServer) -> None:
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    records = tmp_path / "records"
    records.mkdir()
    # what the model "wrote" into the workspace: a whole marketplace with a hooked plugin
    make_marketplace(project, records)
    home = project / ".codex-home"
    home.mkdir()
    (home / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    patch = (
        "*** Begin Patch\n*** Add File: .codex-home/plugins/pins/demo@localmk\n+x\n*** End Patch\n"
    )
    model_server.add(
        turn(function_call("exec_command", {"cmd": PLANT}, call_id="c1")),
        turn(custom_tool_call("apply_patch", patch, call_id="c2")),
        turn(message("planted")),
        turn(message("second run")),
    )
    run(home, project, model_server, "plant a plugin")
    outputs = [
        str(item["output"])
        for body in model_server.bodies
        for item in body["input"]
        if item.get("type") in ("function_call_output", "custom_tool_call_output")
    ]
    assert "wrote-" not in next(o for o in outputs if "done" in o)
    assert "Success" not in outputs[-1], outputs[-1]
    assert not (home / "plugins").exists()
    assert "[plugins" not in (home / "config.toml").read_text()
    run(home, project, model_server, "anything")
    assert list(records.iterdir()) == []  # its hook never ran
    tools = [t.get("name") for t in model_server.bodies[-1].get("tools", [])]
    assert "mcp__plugecho" not in tools
