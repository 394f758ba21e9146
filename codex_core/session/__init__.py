"""Sessions: the submission/event queues frontends talk to, around the turn kernel."""

from codex_core.session.host import ClientFactory
from codex_core.session.session import Session

__all__ = ["ClientFactory", "Session"]
