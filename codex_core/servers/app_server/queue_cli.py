"""`codex queue --thread ID|NAME --message TEXT [--resume] [--remote ADDR]` as Codex 0.169 has it.

It sends `thread/queue/add` to a running app-server: the one at `--remote`, else the local
daemon on the control socket. With no daemon running, the message goes straight into
CODEX_HOME's queue file (as 0.169, observed: it starts no daemon, not even for `--resume`,
which then warns), to run when the thread is next resumed. A NAME is looked up where the
message goes, as 0.169 (observed with a logging server): on the server, through `thread/list`
pages (0.169's interactive and exec source kinds first, then all) after connecting; in this
CODEX_HOME's session index only when no server runs. It prints `Queued message <queued id> for thread <ID>.`; a failed
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


NAME_SOURCES: tuple[list[str], ...] = (["cli", "vscode", "exec", "appServer"], [])
"""The `sourceKinds` of 0.169's two `thread/list` passes looking for a NAME."""
MAX_PAGES = 1000
"""A bound on the pages read per pass (100 threads each)."""


def _uuid(wanted: str) -> str | None:
    try:
        return str(uuid.UUID(wanted))
    except ValueError:
        return None


def _not_found(wanted: str) -> QueueError:
    return QueueError(f"No active session found matching '{wanted}'.")


def _local_thread_id(wanted: str, codex_home: Path) -> str:
    from codex_core.frontend.sessions import thread_name_index

    found = _uuid(wanted) or thread_name_index(codex_home).get(wanted.strip())
    if found is None:
        raise _not_found(wanted)
    return found


def _server_thread_id(client: Any, wanted: str) -> str:
    """The thread the server lists under the name `wanted` (a UUID is taken as is)."""
    found = _uuid(wanted)
    if found is not None:
        return found
    name = wanted.strip()
    for kinds in NAME_SOURCES:
        cursor = None
        for _ in range(MAX_PAGES):
            params = {"cursor": cursor, "limit": 100, "archived": False, "sourceKinds": kinds}
            page = client.call("thread/list", {**params, "useStateDbOnly": True})
            for thread in page.get("data") or []:
                if isinstance(thread, dict) and thread.get("name") == name:
                    return str(thread["id"])
            cursor = page.get("nextCursor")
            if not cursor:
                break
    raise _not_found(wanted)


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
    if not ns.remote and not (address.socket and address.socket.exists()):
        return _queue_in_file(codex_home, ns, ns.resume)  # (no websocket import)
    try:
        client = RemoteClient(address, token)
    except RemoteError as err:
        if not ns.remote:  # no daemon running: as 0.169, into the queue file
            return _queue_in_file(codex_home, ns, ns.resume)
        raise QueueError(f"failed to connect to remote app server: {err}") from None
    try:
        client.initialize("codex_queue")
        thread_id = _server_thread_id(client, ns.thread)
        params = _params(thread_id, ns.message)
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


def _params(thread_id: str, text: str) -> dict[str, Any]:
    """`thread/queue/add`'s params, as 0.169's client sends them."""
    return {
        "threadId": thread_id,
        "input": [{"type": "text", "text": text, "text_elements": []}],
        "clientUserMessageId": str(uuid.uuid4()),
        "responsesapiClientMetadata": None,
    }


def _queue_in_file(codex_home: Path, ns: argparse.Namespace, resume: bool) -> int:
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

    thread_id = _local_thread_id(ns.thread, codex_home)
    params = _params(thread_id, ns.message)
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
