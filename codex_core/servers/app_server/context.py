"""What request handlers may use of the connection (so handlers never import the server)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from codex_core.config.flags import ConfigOverrides
from codex_core.servers.app_server.model_notify import ServerMessage
from codex_core.servers.app_server.threads import LoadedThread

if TYPE_CHECKING:
    from codex_core.servers.app_server.hub import ThreadHub


class ServerContext(Protocol):
    """The connection state handlers read and change."""

    cli_overrides: list[str]
    flags: ConfigOverrides | None
    """The local TUI's dedicated flags, the base of its threads' config (None elsewhere)."""
    initialized: bool
    client_name: str
    experimental_api: bool
    """The client asked for the experimental methods (`capabilities.experimentalApi`)."""
    threads: dict[str, LoadedThread]
    hub: ThreadHub
    """The process's threads, shared with every other connection."""

    def thread(self, thread_id: str) -> LoadedThread:
        """A loaded thread, or the error Codex answers for an unknown one."""
        ...

    def adopt(self, loaded: LoadedThread) -> None:
        """Start pumping a new thread's events to the client."""
        ...

    def subscribe(self, loaded: LoadedThread) -> None:
        """Send a thread another connection loaded to this client too."""
        ...

    def after_response(self, message: ServerMessage) -> None:
        """Send `message` right after the response to the request being handled."""
        ...
