"""The one item projection: session events → thread items started, streamed and completed.

Frontends (exec `--json`, the app-server, …) feed each session `Event` to a `Projection` and
render the notices it returns; none of them matches on raw events (`Event` and `EventMsg` name
what they are fed). Items follow the 0.169 app-server's `ThreadItem` kinds (`kinds`); notices
are in `notices`. An interactive client (the TUI) feeds a `ClientProjection` (`client`): the
same notices, and what only it needs.
"""

from codex_core.items import client, kinds, notices
from codex_core.items.client import ClientProjection
from codex_core.items.projection import NewId, Projection, counting_ids
from codex_core.protocol.events import Event, EventMsg

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
