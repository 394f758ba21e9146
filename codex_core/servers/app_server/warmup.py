"""Load, in a background thread, what a thread's first model request needs.

A server process spent its first `turn/start` building what a session loads on first use (the
turn's validators, the output-item validator, the diff tracker, the /undo snapshot's git
code) and an https provider's TLS context; clients send
`initialize` and `thread/start` first, and users type, so doing it while the server waits
for them takes it off the first turn's path to its first delta. Python's import lock makes a
request that needs a module meanwhile wait for this import instead of repeating it. (It
loaded httpx's stack, httpcore and anyio, while the model client used them: the model
client's own HTTP, `codex_core.client.http1`, loads with the session before any request.)
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Sequence

from codex_core.config.flags import ConfigOverrides

log = logging.getLogger(__name__)


def _warm() -> None:
    try:
        # The validators `turn/start` builds on first use: its params' and the op's (~14M
        # instructions of a server's first turn/start).
        from codex_core.protocol import TextInput, UserTurnOp
        from codex_core.servers.app_server.model_methods import TurnStartParams

        TurnStartParams.model_validate({"threadId": "", "input": []})
        UserTurnOp(items=[TextInput(text="")])
        # What a thread's first turn loads or builds before its first delta (issue 29): the
        # output-item validator, the turn's diff tracker, the /undo snapshot's git code.
        import codex_core.apply_patch.turn_diff  # noqa: F401
        import codex_core.git_snapshot  # noqa: F401
        from codex_core.protocol.items import parse_response_item

        parse_response_item({"type": "message", "role": "assistant", "content": []})
    except Exception:  # an optimisation only: the request imports what it needs itself
        log.debug("warm-up failed", exc_info=True)


# A thread still importing (or inside pydantic-core or OpenSSL) while the interpreter
# finalises can crash the process with SIGSEGV: a client that closes stdin at once saw the
# server exit with -11. So the process waits for the warm-up before it finalises; it only
# imports, so it ends in well under a second, and the wait is bounded all the same.
JOIN_TIMEOUT = 10.0


def start_warmup(cli_overrides: Sequence[str] = (), flags: ConfigOverrides | None = None) -> None:
    """Start the warm-up in a background thread that exit waits for (at most JOIN_TIMEOUT);
    `cli_overrides` and `flags`: the server's, every thread's base configuration."""
    from codex_core.servers.app_server.provider_guess import may_use_https

    # https's TLS context, in a thread of its own: OpenSSL reads the CA bundle without the
    # GIL. The configuration is not loaded yet, so its provider is guessed from the files
    # and flags; a plain http one (local servers) needs no context at all. Started here,
    # not from the warm-up thread: its exit join is then registered before the server can
    # end (a client closing stdin at once made the warm-up register it while the process
    # was already finalising, and OpenSSL still running then crashed it with SIGSEGV).
    if may_use_https(cli_overrides, flags):
        from codex_core.tls_context import prepare

        prepare()
    thread = threading.Thread(target=_warm, name="codex-warmup", daemon=True)
    thread.start()
    atexit.register(thread.join, JOIN_TIMEOUT)
