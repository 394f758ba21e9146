"""`codex app-server [--listen stdio://]` and `codex app-server generate-json-schema --out DIR`."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="codex app-server",
        description="Serve the Codex app-server protocol (JSON-RPC over JSON Lines) on stdio.",
    )
    parser.add_argument(
        "--listen", default="stdio://", help="transport; only stdio:// is supported"
    )
    parser.add_argument("-c", "--config", action="append", default=[], metavar="key=value")
    sub = parser.add_subparsers(dest="command")
    schema = sub.add_parser("generate-json-schema", help="write the protocol's JSON schema")
    schema.add_argument("--out", required=True, metavar="DIR", help="output directory")
    schema.add_argument("--experimental", action="store_true", help="accepted; no effect")
    return parser


def main(argv: list[str], global_overrides: list[str]) -> int:
    """Entry of `codex [-c k=v …] app-server …`; returns the exit code."""
    ns = _parser().parse_args(argv)
    if ns.command == "generate-json-schema":
        from codex_core.servers.app_server.schema import write_schema

        written = write_schema(Path(ns.out))
        print(f"wrote {len(written)} schema files to {ns.out}", file=sys.stderr)
        return 0
    if ns.listen != "stdio://":
        print(
            f"codex app-server: --listen {ns.listen} is not supported; use --listen stdio://",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    from codex_core.servers.app_server.transport import serve_stdio

    try:
        return asyncio.run(serve_stdio([*global_overrides, *ns.config]))
    except KeyboardInterrupt:
        return 130
