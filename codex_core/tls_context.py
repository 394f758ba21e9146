"""The TLS context of https providers: built once per process, early, as httpx built it.

Building it loads the CA bundle: ~240M instructions, nearly all of them OpenSSL parsing
certificates, which CPython runs without the GIL. Built when the first https client is made,
that sat on the way to the first model request. `prepare_for` starts it in a thread as soon
as a configuration names an https provider (exec once its configuration is loaded, every
session as it is created; the app-server's warm-up at once), so it runs on the other core
while the session's modules load;
the first https client then takes what was built, waiting for the rest if need be. Plain
http providers (Ollama, local servers) never load the bundle.

The context is what `httpx.create_ssl_context()` gave the model client until issue 29:
SSL_CERT_FILE's bundle, else SSL_CERT_DIR's certificates, else certifi's bundle; offering
HTTP/1.1 by ALPN as httpcore did. Standard library only at import (certifi at the build).
"""

from __future__ import annotations

import atexit
import os
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
        context = create()
    except Exception:  # the client builds it again itself and so meets the error
        return
    with _lock:
        _built.append(context)


def create() -> ssl.SSLContext:
    """A new context verifying servers against the environment's or certifi's CAs.

    Raises:
        OSError: SSL_CERT_FILE or SSL_CERT_DIR names what cannot be read.
    """
    import ssl

    if cafile := os.environ.get("SSL_CERT_FILE"):
        context = ssl.create_default_context(cafile=cafile)
    elif capath := os.environ.get("SSL_CERT_DIR"):
        context = ssl.create_default_context(capath=capath)
    else:
        import certifi

        context = ssl.create_default_context(cafile=certifi.where())
    context.set_alpn_protocols(["http/1.1"])
    return context


def shared_context() -> ssl.SSLContext:
    """The context: the one `prepare` built (waiting for it if need be), else built here."""
    with _lock:
        thread = _thread
    if thread is not None:
        thread.join()
    with _lock:
        if _built:
            return _built[0]
    context = create()
    with _lock:
        if not _built:
            _built.append(context)
        return _built[0]
