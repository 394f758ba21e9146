"""`codex app-server [--listen URL] [--ws-auth …]` and `codex app-server generate-json-schema`."""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import sys
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from codex_core.servers.app_server.listen import Listen


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="codex app-server",
        description="Serve the Codex app-server protocol (JSON-RPC) on stdio, a unix socket "
        "or a websocket.",
    )
    parser.add_argument(
        "--listen",
        default="stdio://",
        metavar="URL",
        help="stdio:// (default), unix://, unix://PATH, ws://IP:PORT or off",
    )
    parser.add_argument("--stdio", action="store_true", help="same as --listen stdio://")
    parser.add_argument("-c", "--config", action="append", default=[], metavar="key=value")
    parser.add_argument(
        "--ws-auth", choices=("capability-token", "signed-bearer-token"), metavar="MODE"
    )
    parser.add_argument("--ws-token-file", metavar="PATH")
    parser.add_argument("--ws-token-sha256", metavar="HEX")
    parser.add_argument("--ws-shared-secret-file", metavar="PATH")
    parser.add_argument("--ws-issuer", metavar="ISSUER")
    parser.add_argument("--ws-audience", metavar="AUDIENCE")
    parser.add_argument("--ws-max-clock-skew-seconds", type=int, metavar="SECONDS")
    parser.add_argument(
        "--analytics-default-enabled", action="store_true", help="accepted; no effect"
    )
    parser.add_argument(
        "--managed-daemon",
        action="store_true",
        help="run as this CODEX_HOME's daemon (started by `codex app-server daemon start`)",
    )
    sub = parser.add_subparsers(dest="command")
    schema = sub.add_parser("generate-json-schema", help="write the protocol's JSON schema")
    schema.add_argument("--out", required=True, metavar="DIR", help="output directory")
    schema.add_argument("--experimental", action="store_true", help="accepted; no effect")
    proxy = sub.add_parser("proxy", help="pipe stdio bytes to a running app-server's unix socket")
    proxy.add_argument("--sock", metavar="SOCKET_PATH", help="default: the control socket")
    daemon = sub.add_parser("daemon", help="manage the local app-server daemon")
    daemon.add_argument("-c", "--config", action="append", default=[], metavar="key=value")
    daemon.add_argument(
        "daemon_command",
        choices=("start", "restart", "stop", "version"),
        metavar="COMMAND",
        help="start, restart, stop, or version (print the local and running versions as JSON)",
    )
    return parser


def main(argv: list[str], global_overrides: list[str]) -> int:
    """Entry of `codex [-c k=v …] app-server …`; returns the exit code."""
    ns = _parser().parse_args(argv)
    if ns.command == "generate-json-schema":
        from codex_core.servers.app_server.schema import write_schema

        written = write_schema(Path(ns.out))
        print(f"wrote {len(written)} schema files to {ns.out}", file=sys.stderr)
        return 0
    if ns.command == "proxy":
        return _proxy(ns.sock)
    if ns.command == "daemon":
        from codex_core.servers.app_server.daemon import main as daemon_main

        return daemon_main(ns.daemon_command)
    from codex_core.servers.app_server.listen import ListenError, parse_listen

    try:
        listen = parse_listen("stdio://" if ns.stdio else ns.listen)
    except ListenError as err:
        print(f"error: invalid value '{ns.listen}' for '--listen <URL>': {err}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    overrides = [*global_overrides, *ns.config]
    if listen.kind == "off":
        print(
            "Error: no transport configured; use --listen or enable remote control", file=sys.stderr
        )
        return 1
    if listen.kind == "stdio":
        with _loading_for_good():
            from codex_core.servers.app_server.transport import serve_stdio

        return _run(serve_stdio(overrides))
    return _serve_socket(ns, listen, overrides)


def _serve_socket(ns: argparse.Namespace, listen: Listen, overrides: list[str]) -> int:
    from codex_core.servers.app_server.listen import control_socket
    from codex_core.servers.app_server.ws_auth import AuthConfigError, AuthFlags, build_auth

    flags = AuthFlags(
        mode=ns.ws_auth,
        token_file=ns.ws_token_file,
        token_sha256=ns.ws_token_sha256,
        shared_secret_file=ns.ws_shared_secret_file,
        issuer=ns.ws_issuer,
        audience=ns.ws_audience,
        max_clock_skew_seconds=ns.ws_max_clock_skew_seconds,
    )
    try:
        auth = build_auth(flags)
    except AuthConfigError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    if ns.managed_daemon and (listen.kind != "unix" or listen.path is not None):
        print("Error: `--managed-daemon` requires `--listen unix://`", file=sys.stderr)
        return 1
    with _loading_for_good():
        from codex_core.servers.app_server import ws_transport

    if listen.kind == "unix":
        path = listen.path
        if path is None:
            from codex_core.frontend import CodexHomeError, find_codex_home

            try:
                home = find_codex_home()
            except CodexHomeError as err:
                print(f"Error: {err}", file=sys.stderr)
                return 1
            path = control_socket(home)
            if ns.managed_daemon:
                return _serve_daemon(home, path, overrides)
        return _run(ws_transport.serve_unix(path, overrides))
    if auth is None and not listen.loopback:
        print(
            f"Error: refusing to start non-loopback websocket listener {listen.host}:"
            f"{listen.port} without auth; configure `--ws-auth capability-token` or "
            "`--ws-auth signed-bearer-token`",
            file=sys.stderr,
        )
        return 1
    return _run(ws_transport.serve_websocket(listen, overrides, auth))


def _serve_daemon(home: Path, path: Path, overrides: list[str]) -> int:
    """The managed daemon: the control socket, with its pid record while it listens."""
    import signal

    from codex_core import __version__
    from codex_core.servers.app_server import daemon_pid, ws_transport

    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # no terminal: a hangup is not for us
    try:
        return _run(
            ws_transport.serve_unix(
                path, overrides, on_ready=lambda: daemon_pid.write_record(home, __version__)
            )
        )
    finally:
        daemon_pid.remove_record(home)


@contextmanager
def _loading_for_good() -> Iterator[None]:
    """Import the server with the cyclic garbage collector paused, then freeze what loaded.

    The server's modules live as long as the process: collecting while they load (~40 ms
    before `initialize` can be answered) only walks them, and frozen, later collections
    leave them alone.
    """
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def _run(main: Coroutine[Any, Any, int]) -> int:
    try:
        return asyncio.run(main)
    except KeyboardInterrupt:
        return 130


def _proxy(sock: str | None) -> int:
    from codex_core.servers.app_server.listen import control_socket
    from codex_core.servers.app_server.proxy import proxy

    if sock is not None:
        path = Path(sock).absolute()
    else:
        from codex_core.frontend import CodexHomeError, find_codex_home

        try:
            path = control_socket(find_codex_home())
        except CodexHomeError as err:
            print(f"Error: {err}", file=sys.stderr)
            return 1
    return _run(proxy(path))
