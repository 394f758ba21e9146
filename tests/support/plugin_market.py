"""Local plugin marketplaces for the tests: one plugin carrying a skill, an MCP server (the
`mcp` SDK server of tests/mcp) and a hook that records its stdin and environment."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

MCP_SERVER = Path(__file__).resolve().parents[1] / "mcp" / "server.py"


def make_marketplace(
    root: Path, records: Path, name: str = "localmk", plugin: str = "demo"
) -> Path:
    """A marketplace folder offering `plugin` (version 0.1.0); returns the plugin's folder."""
    folder = root / "plugins" / plugin
    (root / ".agents" / "plugins").mkdir(parents=True, exist_ok=True)
    (root / ".agents" / "plugins" / "marketplace.json").write_text(
        json.dumps(
            {
                "name": name,
                "plugins": [
                    {"name": plugin, "source": {"source": "local", "path": f"./plugins/{plugin}"}}
                ],
            }
        )
    )
    (folder / ".codex-plugin").mkdir(parents=True)
    (folder / ".codex-plugin" / "plugin.json").write_text(
        json.dumps({"name": plugin, "version": "0.1.0", "description": "A demo plugin"})
    )
    skill = folder / "skills" / "demo-skill"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: demo-skill\ndescription: A demo skill\n---\n\nBODY-OF-DEMO-SKILL\n"
    )
    server = {"command": sys.executable, "args": [str(MCP_SERVER), "stdio"], "required": True}
    (folder / ".mcp.json").write_text(json.dumps({"mcpServers": {"plugecho": server}}))
    (folder / "hooks").mkdir()
    script = folder / "hooks" / "record.sh"
    script.write_text(f"#!/bin/sh\ncat > {records}/ups.$$.json\nenv > {records}/ups.$$.env\n")
    script.chmod(0o755)
    hook = {"type": "command", "command": "${PLUGIN_ROOT}/hooks/record.sh", "timeout": 20}
    (folder / "hooks" / "hooks.json").write_text(
        json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [hook]}]}})
    )
    return folder


def git_commit_all(repo: Path) -> None:
    """`git init` + commit everything in `repo`."""
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "m"],
        check=True,
    )


@contextmanager
def git_http_server(repo: Path, served: Path) -> Iterator[str]:
    """Serve a bare clone of `repo` over git's dumb HTTP protocol on 127.0.0.1; yields its URL."""
    bare = served / "market.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(bare)], check=True)
    subprocess.run(["git", "-C", str(bare), "update-server-info"], check=True)

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(served)))
    # shutdown() waits for serve_forever to poll: every 20 ms, not the default 0.5 s
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/market.git"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)
