"""The start-up steps of a TUI attached to a running app-server (`codex --remote ADDR`).

Nothing local is asked or written: trust, keys, config and the recorded sessions are the
server's. The resume picker lists the server's threads (`thread/list`); a session is a
thread started or resumed on the server (`AppServerCore`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from codex_core.servers.app_server.remote import RemoteAddress, RemoteClient, RemoteError
from codex_tui.app.core import CoreClient, KeyRequest, SessionPage, SessionSummary, TrustRequest

PAGE_SIZE = 25


class RemoteSessions:
    """Pages of the server's threads, as rows for the resume picker."""

    def __init__(self, boot: RemoteBoot) -> None:
        self.boot = boot

    def list_page(self, cursor: str | None, show_all: bool) -> SessionPage:
        """One page of threads, newest first (every directory's: the cwd is the server's)."""
        client = RemoteClient(self.boot.address, self.boot.token)
        try:
            client.initialize("codex-tui")
            result = client.call("thread/list", {"cursor": cursor, "limit": PAGE_SIZE})
        finally:
            client.close()
        items = [self.boot.summary(thread) for thread in result.get("data") or []]
        return SessionPage(items, result.get("nextCursor"))


class RemoteBoot:
    """Implements `Boot` against an app-server."""

    def __init__(
        self,
        address: RemoteAddress,
        token: str | None,
        *,
        resume_last: bool = False,
        overrides: dict[str, Any] | None = None,
    ) -> None:
        self.address = address
        self.token = token
        self.resume_last = resume_last
        self.overrides = overrides or {}
        """What the command line chose for the thread (`-m`, `-a`, `-s`, `-C`), sent with
        `thread/start` and `thread/resume`; the local config.toml is not the server's."""
        self._threads: dict[Path, str] = {}
        """Thread ids by the path the picker was given for them."""
        self.current: str | None = None
        """The thread of the session on screen."""

    def summary(self, thread: dict[str, Any]) -> SessionSummary:
        """A picker row for a wire `Thread`."""
        path = Path(thread.get("path") or thread["id"])
        self._threads[path] = thread["id"]
        git = thread.get("gitInfo") or {}
        return SessionSummary(
            id=thread["id"],
            path=path,
            updated=datetime.fromtimestamp(thread.get("updatedAt") or 0, UTC),
            cwd=thread.get("cwd") or "",
            branch=git.get("branch"),
            preview=thread.get("preview") or "",
        )

    def thread_path(self, thread_id: str) -> Path:
        """The path `start` takes for a thread named on the command line."""
        path = Path(thread_id)
        self._threads[path] = thread_id
        return path

    def trust_request(self) -> TrustRequest | None:
        """The server decided."""
        return None

    def record_trust(self, trusted: bool) -> None:
        """Never asked."""

    def key_request(self) -> KeyRequest | None:
        """The server holds the credentials."""
        return None

    def save_key(self, key: str) -> None:
        """Never asked."""

    def sessions(self) -> RemoteSessions:
        """The server's threads."""
        return RemoteSessions(self)

    async def start(self, resume_path: Path | None) -> CoreClient:
        """Connect; start a thread, or resume the one `resume_path` stands for.

        Raises:
            RemoteError: The server cannot be reached or refused.
        """
        from codex_tui.app.app_server_core import AppServerCore

        core = await AppServerCore.connect(self.address, self.token)
        thread_id = None
        if resume_path is not None:
            thread_id = self._threads.get(resume_path, resume_path.name)
        elif self.resume_last:
            self.resume_last = False
            listed = await core.call("thread/list", {"limit": 1})
            data = listed.get("data") or []
            thread_id = data[0]["id"] if data else None
        await core.open_thread(thread_id, self.overrides)
        self.current = core.wire.thread_id
        return core

    def prepare_session(self) -> None:
        """Nothing to get ready: the server runs the session."""

    def fork(self, rollout: Path, nth_user_message: int | None) -> Path:
        """`/fork`: the server copies the thread (`thread/fork`); the copy is then resumed.

        Raises:
            OSError: A backtrack's fork (up to a message), which the wire does not offer, or
                the server refused (the message says why).
        """
        if nth_user_message is not None:
            raise OSError("backtracking is not available in a TUI attached to a remote app server")
        thread_id = self._threads.get(rollout, self.current)
        if thread_id is None:
            raise OSError("no thread to fork")
        client = None
        try:
            client = RemoteClient(self.address, self.token)
            client.initialize("codex-tui")
            forked = client.call("thread/fork", {"threadId": thread_id, "excludeTurns": True})
        except RemoteError as err:
            raise OSError(str(err)) from None
        finally:
            if client is not None:
                client.close()
        return self.thread_path(forked["thread"]["id"])

    def save_model(self, model: str, effort: str | None) -> None:
        """The config is the server's: the model holds for this thread only."""
        raise RemoteError("the config belongs to the remote app server")

    def logout(self) -> bool:
        """The credentials are the server's."""
        return False

    def release_spare(self) -> None:
        """No spare process."""


def thread_overrides(
    model: str | None,
    approval_policy: str | None,
    sandbox_mode: str | None,
    cwd: str | None,
    approvals_reviewer: str | None = None,
) -> dict[str, Any]:
    """The `thread/start` fields for the flags given on the command line (none for unset)."""
    fields = {
        "model": model,
        "approvalPolicy": approval_policy,
        "sandbox": sandbox_mode,
        "cwd": cwd,
        "approvalsReviewer": approvals_reviewer,
    }
    return {key: value for key, value in fields.items() if value is not None}
