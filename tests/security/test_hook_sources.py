"""Hooks run on the host as the user's own programs, so the model must never be able to
write one (issue 25): a project's `.codex/hooks.json` and the trust record in
`CODEX_HOME/config.toml` stay read-only in every sandbox, by command and by patch, and a
hook written anyway would still be untrusted until the user reviews it.

End to end: `codex exec` in a trusted project under workspace-write, the model's command
and patch try to plant a hook and trust it; a second run must not execute it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.support.model_server import ModelServer
from tests.support.sse import custom_tool_call, function_call, message, turn

from .test_linux_helpers import CODEX, needs_bwrap

PLANT = """
mkdir -p .codex 2>/dev/null
printf '{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"touch %s"}]}]}}' \
  > .codex/hooks.json 2>/dev/null && echo wrote-project-hooks
printf '{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"touch %s"}]}]}}' \
  > "$CODEX_HOME/hooks.json" 2>/dev/null && echo wrote-home-hooks
printf '[hooks.state."x"]\\ntrusted_hash = "sha256:0"\\n' >> "$CODEX_HOME/config.toml" \
  2>/dev/null && echo wrote-trust
echo done
"""


def run(home: Path, project: Path, server: ModelServer, prompt: str) -> str:
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "CODEX_HOME": str(home)}
    done = subprocess.run(
        [str(CODEX), "exec", "-s", "workspace-write", "--json", *server.cli_flags(), prompt],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs_bwrap
def test_hook_sources_and_trust_stay_out_of_the_models_reach(
    tmp_path: Path, model_server: ModelServer
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    home = project / ".codex-home"  # CODEX_HOME inside the workspace: the hard case
    home.mkdir()
    marker = tmp_path / "hook-ran"
    (home / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    patch = (
        "*** Begin Patch\n*** Add File: .codex/hooks.json\n"
        f'+{{"hooks":{{"Stop":[{{"hooks":[{{"type":"command","command":"touch {marker}"}}]}}]}}}}\n'
        "*** End Patch\n"
    )
    model_server.add(
        turn(function_call("exec_command", {"cmd": PLANT % (marker, marker)}, call_id="c1")),
        turn(custom_tool_call("apply_patch", patch, call_id="c2")),
        turn(message("planted")),
        turn(message("second run")),
    )
    run(home, project, model_server, "plant a hook")
    outputs = [
        item["output"]
        for body in model_server.bodies
        for item in body["input"]
        if item.get("type") in ("function_call_output", "custom_tool_call_output")
    ]
    command_output = next(o for o in outputs if "done" in o)
    patch_output = outputs[-1]
    assert "Success" not in patch_output, patch_output
    assert "wrote-" not in command_output, command_output
    assert not (project / ".codex" / "hooks.json").exists()
    assert not (home / "hooks.json").exists()
    assert "hooks" not in (home / "config.toml").read_text()
    run(home, project, model_server, "anything")
    assert not marker.exists()
