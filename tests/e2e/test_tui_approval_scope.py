"""Issue 23 item 4 through the real TUI in a pseudo-terminal: under `on-failure` the user
approves an escalated harmless command; the model then reuses its call id for a command
that writes outside the workspace. The sandbox refuses it, and the re-run outside the
sandbox must be asked about again (the user says no and stops the turn), not inherited
from the call id."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_tui_session import spawn
from tests.security.test_linux_helpers import linux_sandbox
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, turn

pytestmark = [pytest.mark.e2e, linux_sandbox]


def test_tui_reused_call_id_does_not_inherit_an_approval(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, codex_home: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    target = tmp_path / "outside" / "pwned"
    target.parent.mkdir()
    (codex_home / "config.toml").write_text(
        "[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n"
    )
    escalated = {"cmd": "true", "sandbox_permissions": "require_escalated", "justification": "j"}
    model_server.add(
        turn(function_call("exec_command", escalated, "c1")),
        turn(function_call("exec_command", {"cmd": f"echo pwned > {target}"}, "c1")),
    )
    flags = ["-a", "on-failure", "-s", "workspace-write", *model_server.cli_flags()]
    term = spawn(codex_bin, flags, project)
    term.wait_for("Ask Codex to do anything")
    term.child.send("go\r")
    term.wait_for("Allow Codex to run this command?")
    term.forget()
    term.child.send("y")  # the harmless escalation
    # asked again for the re-run (its reason, not the title: the first dialog may repaint)
    term.wait_for("run it without the sandbox?")
    term.forget()
    term.child.send("n")  # no (and stop the turn)
    term.wait_for("Interrupted")
    term.child.send("\x04")
    term.rest()
    assert not target.exists(), "re-run outside the sandbox on an approval of another command"
