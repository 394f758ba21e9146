"""Start-up (issue 29): codex's MCP client loads the SDK's client, not its servers."""

from __future__ import annotations

import subprocess
import sys

SERVER_SIDE = ("mcp.server", "mcp.server.fastmcp", "starlette", "uvicorn", "pydantic_settings")


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout.strip()


def test_mcp_sdk_import_client_modules_leave_the_servers_out() -> None:
    loaded = _run(
        "import sys\n"
        "import codex_core.mcp.connection, codex_core.mcp.manager, codex_core.mcp.resources\n"
        f"print(' '.join(m for m in {SERVER_SIDE!r} if m in sys.modules))"
    )
    assert loaded == ""


def test_mcp_sdk_import_package_names_still_load_on_demand() -> None:
    # Anything reading a name of the `mcp` package gets the SDK's real package.
    out = _run(
        "import codex_core.mcp.manager\n"
        "import mcp\n"
        "from mcp.client.session import ClientSession\n"
        "print(mcp.ClientSession is ClientSession, mcp.types.Tool.__name__, 'mcp.server' in "
        "__import__('sys').modules)"
    )
    assert out == "True Tool True"
