"""The reference MCP servers, installed from their registries once into a cached directory.

`@modelcontextprotocol/server-everything` comes from npm, `mcp-server-time` and
`mcp-server-git` from PyPI (into their own venv). The directory is
`$CODEX_MCP_REFERENCE_DIR`, else `~/.cache/codex-tests/mcp-reference`; a lock file keeps two
test workers from installing at once. When an install fails the tests that need it skip
with the reason.
"""

from __future__ import annotations

import fcntl
import os
import pwd
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

EVERYTHING_VERSION = "2026.8.31"


@dataclass(frozen=True)
class ReferenceServers:
    """Commands that start each reference server over stdio."""

    everything: list[str]
    time: list[str]
    git: list[str]

    def toml(self, name: str, command: list[str]) -> str:
        """A required `[mcp_servers.<name>]` table running `command`."""
        args = ", ".join(f'"{a}"' for a in command[1:])
        return (
            f'[mcp_servers.{name}]\ncommand = "{command[0]}"\nargs = [{args}]\n'
            "required = true\nstartup_timeout_sec = 60\n"
        )


def cache_dir() -> Path:
    """Where the servers are installed."""
    explicit = os.environ.get("CODEX_MCP_REFERENCE_DIR")
    if explicit:
        return Path(explicit)
    # The real user's home: tests point HOME at a fresh directory each.
    return Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "codex-tests" / "mcp-reference"


def _run(argv: list[str], cwd: Path) -> str | None:
    """None when the command succeeded, else the last lines of its output."""
    try:
        env = {**os.environ, "HOME": pwd.getpwuid(os.getuid()).pw_dir}  # npm's and pip's caches
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as err:
        return str(err)
    if done.returncode == 0:
        return None
    return " ".join((done.stderr or done.stdout).strip().splitlines()[-3:])


def _install(base: Path) -> ReferenceServers:
    base.mkdir(parents=True, exist_ok=True)
    with open(base / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        everything = (
            base / "node_modules" / "@modelcontextprotocol" / "server-everything" / "dist"
        ) / "index.js"
        if not everything.exists():
            npm = shutil.which("npm")
            node = shutil.which("node")
            if npm is None or node is None:
                pytest.skip("reference MCP servers: npm/node are not installed")
            failed = _run(
                [
                    npm,
                    "install",
                    "--no-audit",
                    "--no-fund",
                    f"@modelcontextprotocol/server-everything@{EVERYTHING_VERSION}",
                ],
                base,
            )
            if failed:
                pytest.skip(f"reference MCP servers: npm install failed: {failed}")
        venv = base / "pyvenv"
        time_bin, git_bin = venv / "bin" / "mcp-server-time", venv / "bin" / "mcp-server-git"
        if not (time_bin.exists() and git_bin.exists()):
            failed = _run([sys.executable, "-m", "venv", str(venv)], base) or _run(
                [str(venv / "bin" / "pip"), "install", "-q", "mcp-server-time", "mcp-server-git"],
                base,
            )
            if failed:
                pytest.skip(f"reference MCP servers: pip install failed: {failed}")
    node = shutil.which("node") or "node"
    return ReferenceServers([node, str(everything)], [str(time_bin)], [str(git_bin)])


@pytest.fixture(scope="session")
def reference_servers() -> ReferenceServers:
    """The installed reference servers (installed on first use), or skip with the reason."""
    return _install(cache_dir())
