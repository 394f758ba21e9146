"""The TLS context of https providers: httpx's default, built once per process, early.

Building it loads the CA bundle: ~240M instructions, nearly all of them OpenSSL parsing
certificates, which CPython runs without the GIL. Built when the first https client is made,
that sat on the way to the first model request. `prepare_for` starts it in a thread as soon
as a configuration names an https provider (exec once its configuration is loaded, every
session as it is created; the app-server's warm-up at once), so it runs on the other core
while the session's modules load;
the first https client then takes what was built, waiting for the rest if need be. Plain
http providers (Ollama, local servers) never load the bundle.

Standard library only at import: exec calls `prepare` before httpx is loaded.
"""

from __future__ import annotations

import atexit
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ssl

JOIN_TIMEOUT_S = 10.0
"""How long exit waits for a build still running (a thread inside OpenSSL while the
interpreter finalises can crash it, see `servers.app_server.warmup`)."""

_lock = threading.Lock()
_thread: threading.Thread | None = None
_built: list[ssl.SSLContext] = []


def prepare_for(base_url: str) -> None:
    """`prepare` when `base_url` is https."""
    if base_url.startswith("https:"):
        prepare()


def prepare() -> None:
    """Start building the context in a thread (once per process)."""
    global _thread
    with _lock:
        if _thread is not None or _built:
            return
        _thread = threading.Thread(target=_build, name="codex-tls", daemon=True)
        _thread.start()
    atexit.register(_thread.join, JOIN_TIMEOUT_S)


def _build() -> None:
    try:
        import httpx

        context = httpx.create_ssl_context()
    except Exception:  # the client builds it again itself and so meets the error
        return
    with _lock:
        _built.append(context)


def shared_context() -> ssl.SSLContext:
    """The context: the one `prepare` built (waiting for it if need be), else built here."""
    with _lock:
        thread = _thread
    if thread is not None:
        thread.join()
    with _lock:
        if _built:
            return _built[0]
    import httpx

    context = httpx.create_ssl_context()
    with _lock:
        if not _built:
            _built.append(context)
        return _built[0]
