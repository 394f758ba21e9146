"""The one item projection: session events → thread items started, streamed and completed.

Frontends (exec `--json`, the app-server, …) feed each session `Event` to a `Projection` and
render the notices it returns; none of them matches on raw events (`Event` and `EventMsg` name
what they are fed). Items follow the 0.169 app-server's `ThreadItem` kinds (`kinds`); notices
are in `notices`. An interactive client (the TUI) feeds a `ClientProjection` (`client`): the
same notices, and what only it needs: `client` loads on first use (`codex exec` needs none of
it).
"""

from typing import TYPE_CHECKING

from codex_core.items import kinds, notices
from codex_core.items.projection import NewId, Projection, counting_ids
from codex_core.lazy import lazy_attributes
from codex_core.protocol.events import Event, EventMsg

if TYPE_CHECKING:
    from codex_core.items import client
    from codex_core.items.client import ClientProjection

__all__ = [
    "ClientProjection",
    "Event",
    "EventMsg",
    "NewId",
    "Projection",
    "client",
    "counting_ids",
    "kinds",
    "notices",
]


def __getattr__(name: str) -> object:
    """`client` and `ClientProjection`, imported when first read."""
    if name == "client":
        import importlib

        return importlib.import_module("codex_core.items.client")
    return _lazy(name)


_lazy = lazy_attributes(__name__, {"ClientProjection": "client"}, globals())
