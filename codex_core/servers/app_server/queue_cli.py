"""`codex queue --thread ID|NAME --message TEXT [--resume] [--remote ADDR]` as Codex 0.169 has it.

It sends `thread/queue/add` to a running app-server: the one at `--remote`, else the local
daemon on the control socket. With no daemon running, the message goes straight into
CODEX_HOME's queue file (as 0.169, observed: it starts no daemon, not even for `--resume`,
which then warns), to run when the thread is next resumed. A NAME is looked up in this
CODEX_HOME's session index. It prints `Queued message <queued id> for thread <ID>.`; a failed
resume is a warning (the exit code stays 0). Errors: one line, exit 1.
"""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from pathlib import Path
from typing import Any


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
    params = {
        "threadId": thread_id,
        "input": [{"type": "text", "text": ns.message, "text_elements": []}],
        "clientUserMessageId": str(uuid.uuid4()),
        "responsesapiClientMetadata": None,
    }
    if not ns.remote and not (address.socket and address.socket.exists()):
        return _queue_in_file(codex_home, params, ns.resume)  # (no websocket import)
    try:
        client = RemoteClient(address, token)
    except RemoteError as err:
        if not ns.remote:  # no daemon running: as 0.169, into the queue file
            return _queue_in_file(codex_home, params, ns.resume)
        raise QueueError(f"failed to connect to remote app server: {err}") from None
    try:
        client.initialize("codex_queue")
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


def _queue_in_file(codex_home: Path, params: dict[str, Any], resume: bool) -> int:
    """No server running: put the message in the queue file for the thread's next resume
    (`--resume` cannot resume it anywhere: 0.169's warning, exit 0)."""
    from codex_core.frontend import NotASessionError, SessionNotFoundError
    from codex_core.frontend.sessions import find_session
    from codex_core.servers.app_server.queue_store import (
        QueuedRow,
        QueueStore,
        QueueStoreError,
        file_of,
    )

    thread_id = params["threadId"]
    try:
        find_session(codex_home, thread_id)
    except (SessionNotFoundError, NotASessionError):
        raise QueueError(
            "failed to queue session message: thread/queue/add failed: failed to read thread: "
            f"invalid thread-store request: no rollout found for thread id {thread_id} "
            "(code -32603)"
        ) from None
    submission = QueuedRow(str(uuid.uuid4()), params["clientUserMessageId"], params["input"])
    try:
        store = QueueStore(file_of(codex_home))
    except QueueStoreError as err:
        raise QueueError(f"failed to queue session message: {err}") from None
    try:
        store.add(thread_id, submission)
    finally:
        store.close()
    print(f"Queued message {submission.id} for thread {thread_id}.", flush=True)
    if resume:
        print(
            f"Warning: message was queued, but could not resume thread {thread_id}: start a "
            "local daemon or specify a server with --remote",
            file=sys.stderr,
        )
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
