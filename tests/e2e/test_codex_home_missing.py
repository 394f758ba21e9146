"""`CODEX_HOME=<missing> codex <any subcommand>`: the same one-line error and exit 1 everywhere.

As the Codex CLI 0.169 does (`CODEX_HOME points to "…", but that path does not exist`),
except that `--help` and `--version` still print.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from codex_tui.cli.main import PASSTHROUGH

SUBCOMMANDS: list[list[str]] = [
    [],
    ["do the thing"],
    ["exec", "hi"],
    ["e", "--skip-git-repo-check", "hi"],
    ["exec", "resume", "--last"],
    ["resume"],
    ["resume", "--last"],
    ["login", "status"],
    ["login", "--api-key", "sk-x"],
    ["sessions", "list"],
    ["sessions", "archive", "abc"],
    ["sandbox", "--", "true"],
    ["sandbox", "--check"],
    ["debug", "--", "true"],
    ["execpolicy", "check", "--", "ls"],
    ["mcp", "list"],
    ["completion", "bash"],
    ["logout"],
    ["fork", "--last"],
    ["archive", "abc"],
    ["unarchive", "abc"],
    ["delete", "--force", "abc"],
    ["features", "list"],
    ["doctor"],
    ["queue", "--thread", "abc", "--message", "hi"],
    ["review", "--uncommitted"],
    ["plugin", "list"],
]


def _run(codex_bin: Path, args: list[str], home: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(codex_bin), *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "CODEX_HOME": home},
    )


def test_codex_home_missing_covers_every_subcommand() -> None:
    covered = {args[0] for args in SUBCOMMANDS if args}
    assert set(PASSTHROUGH) | {"exec", "e", "resume", "login"} <= covered


@pytest.mark.e2e
@pytest.mark.parametrize("args", SUBCOMMANDS, ids=lambda a: " ".join(a) or "tui")
def test_codex_home_missing_same_error_everywhere(
    codex_bin: Path, tmp_path: Path, args: list[str]
) -> None:
    missing = tmp_path / "nonexistent"
    done = _run(codex_bin, args, str(missing))
    assert (done.returncode, done.stdout, done.stderr) == (
        1,
        "",
        f'codex: CODEX_HOME points to "{missing}", but that path does not exist; '
        f"create it with `mkdir -p {missing}` or unset CODEX_HOME\n",
    )


@pytest.mark.e2e
def test_codex_home_file_is_not_a_directory(codex_bin: Path, tmp_path: Path) -> None:
    afile = tmp_path / "file"
    afile.write_text("")
    done = _run(codex_bin, ["exec", "hi"], str(afile))
    assert done.returncode == 1
    assert done.stderr.startswith(f'codex: CODEX_HOME points to "{afile}", but that path is not')


@pytest.mark.e2e
@pytest.mark.parametrize("args", [["--version"], ["--help"], ["exec", "--help"]])
def test_codex_home_missing_still_prints_help_and_version(
    codex_bin: Path, tmp_path: Path, args: list[str]
) -> None:
    done = _run(codex_bin, args, str(tmp_path / "nonexistent"))
    assert done.returncode == 0 and done.stdout
