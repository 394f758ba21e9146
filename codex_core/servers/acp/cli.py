"""`codex acp`: serve the Agent Client Protocol on stdio."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import cast


async def _serve(cli_overrides: list[str]) -> None:
    import acp

    from codex_core.servers.acp.agent import CodexAgent

    agent = CodexAgent(cli_overrides)
    try:
        # The SDK routes only the methods an agent defines; the rest answer "method not found".
        # session/resume and session/close are "unstable" in the SDK version in use.
        await acp.run_agent(cast("acp.Agent", agent), use_unstable_protocol=True)
    finally:
        await agent.close()


def main(argv: list[str], global_overrides: list[str]) -> int:
    """Entry of `codex [-c k=v …] acp`; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="codex acp", description="Serve the Agent Client Protocol (Zed, JetBrains, Toad)."
    )
    parser.add_argument("-c", "--config", action="append", default=[], metavar="key=value")
    ns = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    try:
        asyncio.run(_serve([*global_overrides, *ns.config]))
    except KeyboardInterrupt:
        return 130
    return 0
