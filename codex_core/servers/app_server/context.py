"""What request handlers may use of the connection (so handlers never import the server)."""

from __future__ import annotations

from typing import Protocol

from codex_core.servers.app_server.model_notify import ServerMessage
from codex_core.servers.app_server.threads import LoadedThread


class ServerContext(Protocol):
    """The connection state handlers read and change."""

    cli_overrides: list[str]
    initialized: bool
    client_name: str
    threads: dict[str, LoadedThread]

    def thread(self, thread_id: str) -> LoadedThread:
        """A loaded thread, or the error Codex answers for an unknown one."""
        ...

    def adopt(self, loaded: LoadedThread) -> None:
        """Start pumping a new thread's events to the client."""
        ...

    def after_response(self, message: ServerMessage) -> None:
        """Send `message` right after the response to the request being handled."""
        ...
