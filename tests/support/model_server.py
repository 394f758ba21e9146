"""A scripted model server on 127.0.0.1 speaking the Responses and Chat Completions wire APIs.

Each POST to `…/responses` or `…/chat/completions` takes the next script step; turns and
failures render in the wire format of the request path, so one script serves both APIs::

    with ModelServer([sse.turn(sse.message("hi"))]) as server:
        provider = server.provider(wire_api="chat")
        ...
        assert server.requests[0].body["messages"][-1]["content"] == "hello"
"""

from __future__ import annotations

import argparse
import json
import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from codex_core.model_provider import ModelProviderInfo
from tests.support.pairing import assert_call_outputs_paired
from tests.support.sse import Event, Renderable, Wire
from tests.support.sse_render import render
from tests.support.steps import (
    DropAfter,
    Garbage,
    Hang,
    HttpError,
    Slow,
    Step,
    api_error,
    drop_after,
    garbage,
    hang,
    http_error,
    slow,
    step_from_json,
)

__all__ = [
    "ModelServer",
    "RecordedRequest",
    "Step",
    "api_error",
    "drop_after",
    "garbage",
    "hang",
    "http_error",
    "slow",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RecordedRequest:
    """One request the server received."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any
    received_at: float = field(default_factory=time.monotonic)
    """`time.monotonic()` when the request arrived (the server runs in the test's process)."""
    peer: int | None = None
    """The client's port: requests that came on one kept-alive connection share it."""

    @property
    def wire(self) -> Wire | None:
        """Which wire API the path names."""
        return _wire_of(self.path)

    def header(self, name: str) -> str | None:
        """A header value, looked up case-insensitively."""
        return self.headers.get(name.lower())


def _wire_of(path: str) -> Wire | None:
    if path.rstrip("/").endswith("/responses"):
        return "responses"
    if path.rstrip("/").endswith("/chat/completions"):
        return "chat"
    return None


class _HttpServer(ThreadingHTTPServer):
    daemon_threads = True
    owner: ModelServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients hanging up (a killed `codex exec`) are normal here; anything else is reported."""
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Each SSE event is its own small write: with Nagle's algorithm on, the second one waits
    # for the client's delayed ACK (~40 ms on loopback), a stall real API servers don't have.
    disable_nagle_algorithm = True
    server: _HttpServer

    def do_POST(self) -> None:  # noqa: N802 (http.server naming)
        self.server.owner.handle(self)

    def do_GET(self) -> None:  # noqa: N802
        models = self.server.owner.models
        if models is not None and self.path.split("?")[0].endswith("/models"):
            body = {"object": "list", "data": [{"id": m, "object": "model"} for m in models]}
            self._plain(200, json.dumps(body), "application/json")
            return
        self._plain(
            404, "scripted model server: only POST …/responses and …/chat/completions exist"
        )

    def _plain(self, status: int, text: str, content_type: str = "text/plain") -> None:
        body = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        log.debug("model server: " + format, *args)


class ModelServer:
    """The scripted server; a context manager that starts and stops it."""

    def __init__(
        self,
        script: Iterable[Step] = (),
        *,
        context_window: int | None = None,
        responder: Callable[[Any], Step] | None = None,
        models: list[str] | None = None,
    ) -> None:
        """`context_window` (tokens, estimated as JSON bytes / 4) makes the server refuse
        bigger requests with the API's `context_length_exceeded` error; `responder` answers
        requests the script has no step for, from the request body; `models` makes
        `GET …/models` list those ids (otherwise every GET is a 404)."""
        self.models = models
        self._steps: deque[Step] = deque(script)
        self.context_window = context_window
        self.responder = responder
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self.requests: list[RecordedRequest] = []
        self._http = _HttpServer(("127.0.0.1", 0), _Handler)
        self._http.owner = self
        self._thread = threading.Thread(
            target=self._http.serve_forever, args=(0.02,), name="model-server", daemon=True
        )

    # -------------------------------------------------------------- lifecycle

    def start(self) -> ModelServer:
        """Start serving in a background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release hanging responses."""
        self._stopping.set()
        if self._thread.is_alive():
            self._http.shutdown()
        self._http.server_close()

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -------------------------------------------------------------- script and results

    @property
    def url(self) -> str:
        """`http://127.0.0.1:PORT`."""
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def base_url(self) -> str:
        """The provider base URL, `http://127.0.0.1:PORT/v1`."""
        return self.url + "/v1"

    def add(self, *steps: Step) -> None:
        """Append steps to the script."""
        with self._lock:
            self._steps.extend(steps)

    @property
    def remaining(self) -> int:
        """Steps not served yet."""
        with self._lock:
            return len(self._steps)

    def assert_script_consumed(self) -> None:
        """Fail when some scripted steps were never requested."""
        assert self.remaining == 0, f"{self.remaining} scripted model step(s) were never requested"

    @property
    def bodies(self) -> list[Any]:
        """The JSON bodies of all requests, in order."""
        return [r.body for r in self.requests]

    def check_pairing(self) -> None:
        """Assert every recorded request pairs each tool output with an earlier call."""
        for index, request in enumerate(self.requests):
            if isinstance(request.body, dict):
                try:
                    assert_call_outputs_paired(request.body)
                except AssertionError as err:
                    raise AssertionError(f"request #{index + 1} ({request.path}): {err}") from None

    def config_overrides(self, wire_api: Wire = "responses", **extra: Any) -> list[str]:
        """`key=value` config overrides selecting a provider `mock` that points here."""
        fields: dict[str, Any] = {
            "name": "mock",
            "base_url": self.base_url,
            "env_key": "OPENAI_API_KEY",
            "wire_api": wire_api,
            **extra,
        }
        inline = ", ".join(f"{key}={json.dumps(value)}" for key, value in fields.items())
        return [f"model_providers.mock={{{inline}}}", 'model_provider="mock"']

    def cli_flags(self, wire_api: Wire = "responses", **extra: Any) -> list[str]:
        """The same overrides as `-c` flags for the `codex` command line."""
        return [flag for pair in self.config_overrides(wire_api, **extra) for flag in ("-c", pair)]

    def provider(self, wire_api: Wire = "responses", **overrides: Any) -> ModelProviderInfo:
        """A provider pointing here: no API key needed, no retries, 5 s idle timeout."""
        fields: dict[str, Any] = {
            "name": "Scripted",
            "base_url": self.base_url,
            "wire_api": wire_api,
            "request_max_retries": 0,
            "stream_max_retries": 0,
            "stream_idle_timeout_ms": 5_000,
        }
        fields.update(overrides)
        return ModelProviderInfo(**fields)

    # -------------------------------------------------------------- serving

    def handle(self, handler: _Handler) -> None:
        """Record the request and serve the next step (called on the handler's thread)."""
        path, _, query = handler.path.partition("?")
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", errors="replace")
        headers = {k.lower(): v for k, v in handler.headers.items()}
        with self._lock:
            peer = handler.client_address[1] if handler.client_address else None
            self.requests.append(RecordedRequest("POST", path, query, headers, body, peer=peer))
            number = len(self.requests)
            wire = _wire_of(path)
            step = self._steps.popleft() if wire is not None and self._steps else None
        if wire is not None and self.context_window is not None:
            if estimate_tokens(body) > self.context_window:
                step = context_length_exceeded(self.context_window)
        if step is None and wire is not None and self.responder is not None:
            step = self.responder(body)
        if wire is None:
            handler._plain(
                404,
                f"scripted model server: no endpoint {path}; use …/responses or …/chat/completions",
            )
            return
        if step is None:
            message = (
                f"scripted model server: the script has no step for request #{number} "
                f"(POST {path}); add more steps to the test's script"
            )
            self._send_error(
                handler, HttpError(500, {"error": {"message": message, "type": "script_exhausted"}})
            )
            return
        try:
            self._serve(handler, step, wire)
        except (BrokenPipeError, ConnectionResetError):
            handler.close_connection = True

    def _serve(self, handler: _Handler, step: Step, wire: Wire) -> None:
        match step:
            case HttpError():
                self._send_error(handler, step)
            case Garbage():
                self._send_garbage(handler, step)
            case Hang(before_headers=True):
                self._stopping.wait(step.seconds)
                handler.close_connection = True
            case Hang():
                self._stream(handler, step.events, end="open")
                self._stopping.wait(step.seconds)
                self._drop(handler)
            case DropAfter():
                self._stream(handler, self._events(step.step, wire)[: step.n], end="drop")
            case Slow():
                self._stream(handler, self._events(step.step, wire), interval_s=step.interval_s)
            case _:
                self._stream(handler, self._events(step, wire))

    @staticmethod
    def _events(step: Renderable | list[Event], wire: Wire) -> list[Event]:
        return list(step) if isinstance(step, list) else render(step, wire)

    def _stream(
        self,
        handler: _Handler,
        events: list[Event],
        *,
        end: Literal["complete", "drop", "open"] = "complete",
        interval_s: float = 0.0,
    ) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        handler.wfile.flush()
        for index, event in enumerate(events):
            if index and interval_s and self._stopping.wait(interval_s):
                break
            data = event.encode()
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            handler.wfile.flush()
        if end == "complete":
            handler.wfile.write(b"0\r\n\r\n")
            handler.wfile.flush()
        elif end == "drop":
            self._drop(handler)

    @staticmethod
    def _drop(handler: _Handler) -> None:
        """Cut the connection inside a chunked body: what a dropped stream looks like."""
        handler.close_connection = True
        try:
            handler.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the client already went away

    @staticmethod
    def _send_error(handler: _Handler, step: HttpError) -> None:
        is_json = isinstance(step.body, dict)
        body = (json.dumps(step.body) if isinstance(step.body, dict) else step.body).encode()
        handler.send_response(step.status)
        names = {k.lower() for k in step.headers}
        if "content-type" not in names:
            handler.send_header("Content-Type", "application/json" if is_json else "text/plain")
        for name, value in step.headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    @staticmethod
    def _send_garbage(handler: _Handler, step: Garbage) -> None:
        if step.raw:
            handler.wfile.write(step.data)
            handler.wfile.flush()
            handler.close_connection = True
            return
        handler.send_response(step.status)
        handler.send_header("Content-Type", step.content_type)
        handler.send_header("Content-Length", str(len(step.data)))
        handler.end_headers()
        handler.wfile.write(step.data)


def estimate_tokens(body: Any) -> int:
    """A request's size in tokens, estimated as its JSON bytes / 4."""
    return len(json.dumps(body, ensure_ascii=False).encode("utf-8")) // 4


def context_length_exceeded(window: int) -> HttpError:
    """The OpenAI error for a request over the context window."""
    return HttpError(
        400,
        {
            "error": {
                "message": f"Your input exceeds the context window of this model ({window}).",
                "type": "invalid_request_error",
                "param": "input",
                "code": "context_length_exceeded",
            }
        },
    )


def main(argv: list[str] | None = None) -> None:
    """Serve a JSON script (a list of steps) until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--script", required=True, help="JSON file holding a list of steps")
    args = parser.parse_args(argv)
    with open(args.script, encoding="utf-8") as handle:
        steps = [step_from_json(s) for s in json.load(handle)]
    with ModelServer(steps) as server:
        print(
            f"scripted model server at {server.base_url} ({len(steps)} steps); Ctrl-C to stop",
            flush=True,
        )
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
