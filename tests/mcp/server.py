"""A real MCP server on the `mcp` SDK (FastMCP) for the tests: `python server.py stdio|http PORT|garbage`.

`MCP_TEST_PID_FILE` makes it write its pid (to check that no child outlives codex);
`MCP_TEST_START_DELAY` (seconds) makes it slow to start; `MCP_TEST_CHILD_PID_FILE` makes it
start a long `sleep` of its own and write that pid (to check that codex ends the server's
whole process group). A `--report` argument adds the read-only `report` tool, which tells
what the server got from codex: its arguments, working directory, the environment variables
and (over HTTP) the request headers it is asked about.
"""

from __future__ import annotations

import json
import os
import sys
import time

from mcp.server.fastmcp import FastMCP
from mcp.types import ImageContent, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

PNG_1X1 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)
READ_ONLY = ToolAnnotations(readOnlyHint=True)

mcp = FastMCP("test", instructions=os.environ.get("MCP_TEST_INSTRUCTIONS"))


class Weather(BaseModel):
    """A forecast."""

    city: str = Field(title="City")
    temp: float


@mcp.tool(annotations=READ_ONLY)
def echo(text: str = Field(description="what to echo", title="Text")) -> str:
    """Echo the text back."""
    return f"echo: {text}"


@mcp.tool()
def weather(city: str) -> Weather:
    """Structured weather."""
    return Weather(city=city, temp=21.5)


@mcp.tool(annotations=READ_ONLY, structured_output=False)
def fail(reason: str = "boom") -> str:
    """Always fails."""
    raise ValueError(reason)


@mcp.tool(annotations=READ_ONLY, structured_output=False)
def picture() -> list[TextContent | ImageContent]:
    """Text and a 1x1 PNG."""
    return [
        TextContent(type="text", text="here"),
        ImageContent(type="image", data=PNG_1X1, mimeType="image/png"),
    ]


@mcp.tool(annotations=READ_ONLY, structured_output=False)
def big() -> str:
    """Ten megabytes of text."""
    return "x" * 5_000_000 + "MIDDLE" + "y" * 5_000_000


@mcp.tool(annotations=READ_ONLY)
async def hang() -> str:
    """Never answers."""
    import anyio

    await anyio.sleep(3600)
    return "never"


@mcp.tool(annotations=READ_ONLY)
def crash() -> str:
    """Kills the server."""
    os._exit(3)


def report(env: list[str] | None = None, headers: list[str] | None = None) -> str:
    """What this server got: argv, cwd, the named variables and request headers (JSON)."""
    request = mcp.get_context().request_context.request  # the HTTP request; None over stdio
    got = getattr(request, "headers", {})
    return json.dumps(
        {
            "argv": sys.argv[1:],
            "cwd": os.getcwd(),
            "env": {name: os.environ.get(name) for name in env or []},
            "headers": {name: got.get(name) for name in headers or []},
        }
    )


def main() -> None:
    pid_file = os.environ.get("MCP_TEST_PID_FILE")
    if pid_file:
        with open(pid_file, "a") as out:
            out.write(f"{os.getpid()}\n")
    child_pid_file = os.environ.get("MCP_TEST_CHILD_PID_FILE")
    if child_pid_file:
        import subprocess

        child = subprocess.Popen(
            ["sleep", "300"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
        )
        with open(child_pid_file, "a") as out:
            out.write(f"{child.pid}\n")
    print("test server starting", file=sys.stderr, flush=True)
    time.sleep(float(os.environ.get("MCP_TEST_START_DELAY") or 0))  # a slow-starting server
    mode = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if "--report" in sys.argv:
        mcp.tool(annotations=READ_ONLY, structured_output=False)(report)
    if mode == "garbage":
        for _ in range(600):
            print("this is not JSON-RPC {{{", flush=True)
            time.sleep(0.1)
        return
    if mode == "http":
        mcp.settings.host = "127.0.0.1"
        mcp.settings.port = int(sys.argv[2])
        mcp.settings.log_level = "WARNING"
        mcp.run("streamable-http")
        return
    mcp.run("stdio")


if __name__ == "__main__":
    main()
