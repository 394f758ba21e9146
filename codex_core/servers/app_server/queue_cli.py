"""`codex queue --thread ID|NAME --message TEXT [--resume] [--remote ADDR]` as Codex 0.169 has it.

It sends `thread/queue/add` to a running app-server: the one at `--remote`, else the local
control socket (`codex app-server --listen unix://`; 0.169 starts a daemon there, this codex
does not). A NAME is looked up in this CODEX_HOME's session index. It prints
`Queued message <queued id> for thread <ID>.`; with `--resume` it then resumes the thread on
the server (a failed resume is a warning; the exit code stays 0). Errors: one line, exit 1.
"""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from pathlib import Path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="codex queue", description="Queue a message for an existing session."
    )
    parser.add_argument("--thread", required=True, help="session UUID or exact session name")
    parser.add_argument("--message", required=True, metavar="TEXT", help="message text to queue")
    parser.add_argument(
        "--resume", action="store_true", help="resume the thread on the server after queueing"
    )
    parser.add_argument("--remote", metavar="ADDR", help="ws://host:port, unix:// or unix://PATH")
    parser.add_argument("--remote-auth-token-env", metavar="ENV_VAR")
    parser.add_argument("-c", "--config", action="append", default=[], metavar="key=value")
    parser.add_argument("--enable", action="append", default=[], metavar="FEATURE")
    parser.add_argument("--disable", action="append", default=[], metavar="FEATURE")
    parser.add_argument("-p", "--profile", help="accepted; queued messages use the thread's")
    parser.add_argument("-C", "--cd", help="accepted; the server's directory is used")
    parser.add_argument("--strict-config", action="store_true", help="accepted")
    return parser


class QueueError(RuntimeError):
    """A one-line failure of the command."""


def _thread_id(wanted: str, codex_home: Path) -> str:
    try:
        return str(uuid.UUID(wanted))
    except ValueError:
        pass
    from codex_core.frontend.sessions import thread_name_index

    found = thread_name_index(codex_home).get(wanted.strip())
    if found is None:
        raise QueueError(f"No active session found matching '{wanted}'.")
    return found


def run(ns: argparse.Namespace) -> int:
    """Queue the message; returns the exit code."""
    from codex_core.frontend import find_codex_home
    from codex_core.servers.app_server.remote import (
        RemoteClient,
        RemoteError,
        RpcFailure,
        parse_remote,
    )

    if ns.remote_auth_token_env and not ns.remote:
        raise QueueError("`--remote-auth-token-env` requires `--remote`.")
    token = None
    if ns.remote_auth_token_env:
        token = os.environ.get(ns.remote_auth_token_env)
        if token is None:
            raise QueueError(f"environment variable `{ns.remote_auth_token_env}` is not set")
    codex_home = find_codex_home()
    address = parse_remote(ns.remote or "unix://", codex_home)
    thread_id = _thread_id(ns.thread, codex_home)
    try:
        client = RemoteClient(address, token)
    except RemoteError as err:
        hint = "" if ns.remote else " (start one with `codex app-server --listen unix://`)"
        raise QueueError(f"failed to connect to remote app server: {err}{hint}") from None
    try:
        client.initialize("codex_queue")
        params = {
            "threadId": thread_id,
            "input": [{"type": "text", "text": ns.message, "text_elements": []}],
            "clientUserMessageId": str(uuid.uuid4()),
            "responsesapiClientMetadata": None,
        }
        try:
            result = client.call("thread/queue/add", params)
        except RpcFailure as err:
            if "unknown variant `thread/queue/add`" in err.message:
                raise QueueError(
                    "the remote app server does not support thread/queue/add; update or "
                    f"restart the remote app server: failed to queue session message: {err}"
                ) from None
            raise QueueError(f"failed to queue session message: {err}") from None
        queued_id = result["queuedSubmission"]["id"]
        print(f"Queued message {queued_id} for thread {thread_id}.", flush=True)
        if ns.resume:
            try:
                client.call("thread/resume", {"threadId": thread_id, "excludeTurns": True})
            except RemoteError as err:
                print(
                    f"Warning: message was queued, but could not resume thread {thread_id}: {err}",
                    file=sys.stderr,
                )
    finally:
        client.close()
    return 0


def main(argv: list[str]) -> int:
    """Entry of `codex queue …`."""
    ns = _parser().parse_args(argv)
    from codex_core.frontend import CodexHomeError
    from codex_core.servers.app_server.remote import RemoteError

    try:
        return run(ns)
    except (QueueError, RemoteError, CodexHomeError) as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
