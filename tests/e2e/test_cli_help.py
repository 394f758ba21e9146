"""`codex --help` lists every command and `codex completion` offers each, through the real
console script; every command of the Codex CLI 0.169 (its `--help`, recorded in
tests/fixtures/cli_0169/commands.json) is either ours or refused by name.

`python -m tests.e2e.test_cli_help record` rewrites the fixture from `codex-rust --help`.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

RECORDED = Path(__file__).parent.parent / "fixtures" / "cli_0169" / "commands.json"


def run(binary: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [binary, *args], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )


def listed_commands(help_text: str, header: str) -> list[str]:
    """The command names in the block that starts at `header` (one indented row each)."""
    block = help_text.split(header, 1)[1]
    names = []
    for line in block.splitlines()[1:]:
        if not line.strip():
            break
        found = re.match(r"^  ([a-z][a-z0-9-]*)\s", line)
        if found:
            names.append(found.group(1))
    return names


def test_cli_help_lists_every_command_and_refuses_the_others_by_name(codex_bin: Path) -> None:
    ours = listed_commands(run(str(codex_bin), "--help").stdout, "commands:")
    from codex_tui.cli.main import BUILTIN, PASSTHROUGH, SERVERS

    assert set(ours) == (set(BUILTIN) | set(PASSTHROUGH) | set(SERVERS)) - {"e", "help"}
    for name in json.loads(RECORDED.read_text())["commands"]:
        if name in ours or name == "help":
            continue
        done = run(str(codex_bin), name)
        assert done.returncode == 2, name
        assert f"codex {name}: this subcommand of the Codex CLI is not available" in done.stderr
    for name in ours:
        done = run(str(codex_bin), name, "--help")
        assert done.returncode == 0 and done.stdout.strip(), (name, done.stderr)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_cli_completion_offers_every_command(codex_bin: Path, shell: str) -> None:
    ours = listed_commands(run(str(codex_bin), "--help").stdout, "commands:")
    script = run(str(codex_bin), "completion", shell).stdout
    words = set(re.findall(r"[a-z][a-z0-9-]*", script))
    assert set(ours) <= words
    for flag in ("--enable", "--disable", "--strict-config", "--no-alt-screen", "--worktree"):
        assert flag in script or f"-l {flag.removeprefix('--')}" in script  # fish: -l NAME


def record() -> None:
    """Write the command list of `codex-rust --help`."""
    done = subprocess.run(["codex-rust", "--help"], capture_output=True, text=True, check=True)
    version = subprocess.run(["codex-rust", "--version"], capture_output=True, text=True)
    names = listed_commands(done.stdout, "Commands:")
    RECORDED.write_text(
        json.dumps({"recorded_with": version.stdout.strip(), "commands": names}, indent=1) + "\n"
    )


if __name__ == "__main__" and sys.argv[1:] == ["record"]:
    record()
