"""Root options before a subcommand (issue 27 item 11): `codex -m X resume` is `resume`.

Codex CLI 0.169 (checked side by side) accepts the root command's options before any
subcommand: `codex -m foo-model exec hi` asks for foo-model, `codex -m X resume` opens the
picker, `codex -m X mcp list` lists. Ours took the first word after the options for a
prompt and sent "resume" to the model.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from codex_tui.cli.main import BUILTIN, PASSTHROUGH, SERVERS, UNSUPPORTED
from tests.e2e.test_tui_session import spawn
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

ROOT_OPTIONS = ["-c", 'model="x"', "-m", "foo", "-s", "read-only", "--full-auto"]
EVERY_SUBCOMMAND = sorted({*BUILTIN, *PASSTHROUGH, *SERVERS, *UNSUPPORTED} - {"help"})


def run(codex_bin: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    return subprocess.run(
        [str(codex_bin), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("subcommand", EVERY_SUBCOMMAND)
def test_cli_every_subcommand_is_recognised_after_root_options(
    subcommand: str, codex_bin: Path, tmp_path: Path
) -> None:
    done = run(codex_bin, [*ROOT_OPTIONS, subcommand, "--help"], tmp_path)
    if subcommand in UNSUPPORTED:
        assert done.returncode == 2
        assert done.stderr.startswith(f"codex {subcommand}: this subcommand")
        return
    assert done.returncode == 0, done.stderr
    shown = {"e": "exec", "debug": "sandbox"}.get(subcommand, subcommand)
    assert f"codex {shown}" in done.stdout.splitlines()[0]


def test_cli_model_before_exec_is_the_model_asked_for(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    model_server.add(turn(message("ok")), turn(message("ok")))
    flags = model_server.cli_flags()
    done = run(
        codex_bin, ["-m", "foo-model", *flags, "exec", "--skip-git-repo-check", "hi"], tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert model_server.bodies[-1]["model"] == "foo-model"
    done = run(
        codex_bin,
        [*flags, "-s", "read-only", "-a", "never", "e", "--skip-git-repo-check", "hi"],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr  # -a is the root's: accepted, not exec's


def test_cli_model_before_resume_opens_the_picker(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    flags = ["-m", "foo-model", "-a", "untrusted", "-s", "danger-full-access"]
    term = spawn(codex_bin, [*flags, *model_server.cli_flags(), "resume"], tmp_path)
    try:
        term.wait_for("Resume a previous session")
        assert not model_server.requests  # "resume" was never sent as a prompt
    finally:
        term.child.terminate(force=True)
