"""A tiny HTTP proxy on 127.0.0.1 for tests: CONNECT tunnels and absolute-URI forwarding
(and `TlsFront`, a TLS terminator in front of the scripted model server).

It records each request it was asked (method, target, headers) and then only pipes bytes:
a CONNECT is answered `200 Connection established` (or `refuse_with`) and tunnelled; a
request with an absolute URI is sent on to its origin with the URI's path as the target.
"""

from __future__ import annotations

import socket
import ssl
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

TIMEOUT_S = 10.0


@dataclass(frozen=True)
class ProxiedRequest:
    method: str
    target: str
    headers: list[tuple[str, str]]


class _Listener:
    """Accepts connections on 127.0.0.1 in a thread until closed; each is handled in a
    thread of its own by `_handle`."""

    def __init__(self, name: str) -> None:
        self.connections = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.1)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)

    @property
    def port(self) -> int:
        return int(self._listener.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(TIMEOUT_S)
        self._listener.close()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        raise NotImplementedError


class ProxyServer(_Listener):
    """A context manager serving until closed; `url` is its http:// address."""

    def __init__(self, refuse_with: str | None = None) -> None:
        super().__init__("test-proxy")
        self.refuse_with = refuse_with
        """e.g. "407 Proxy Authentication Required": CONNECTs are answered so and closed."""
        self.requests: list[ProxiedRequest] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ProxyServer:
        self._thread.start()
        return self

    def _handle(self, client: socket.socket) -> None:
        client.settimeout(TIMEOUT_S)
        with client:
            head = b""
            while b"\r\n\r\n" not in head:
                data = client.recv(65536)
                if not data:
                    return
                head += data
            head, _, rest = head.partition(b"\r\n\r\n")
            line, *lines = head.decode("latin-1").split("\r\n")
            method, target, version = line.split(" ")
            headers = [(k, v.strip()) for k, _, v in (h.partition(":") for h in lines)]
            self.requests.append(ProxiedRequest(method, target, headers))
            if method == "CONNECT":
                if self.refuse_with:
                    client.sendall(
                        f"HTTP/1.1 {self.refuse_with}\r\nContent-Length: 0\r\n\r\n".encode()
                    )
                    return
                host, _, port = target.rpartition(":")
                upstream = socket.create_connection((host.strip("[]"), int(port)), TIMEOUT_S)
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                first = rest
            else:
                url = urlsplit(target)
                upstream = socket.create_connection((url.hostname, url.port or 80), TIMEOUT_S)
                path = url.path + (f"?{url.query}" if url.query else "")
                first = f"{method} {path} {version}\r\n".encode() + head.split(b"\r\n", 1)[1]
                first += b"\r\n\r\n" + rest
            with upstream:
                if first:
                    upstream.sendall(first)
                _pipe(client, upstream)


def _pipe(a: socket.socket, b: socket.socket) -> None:
    """Copy both ways until either side closes."""

    def copy(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for sock in (src, dst):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    other = threading.Thread(target=copy, args=(b, a), daemon=True)
    other.start()
    copy(a, b)
    other.join(TIMEOUT_S)


class TlsFront(_Listener):
    """Terminates TLS on 127.0.0.1 with `context` and pipes each connection to `port` (the
    scripted model server): an https provider for end-to-end tests."""

    def __init__(self, context: ssl.SSLContext, port: int) -> None:
        super().__init__("test-tls")
        self._context = context
        self._port = port

    @property
    def base_url(self) -> str:
        return f"https://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> TlsFront:
        self._thread.start()
        return self

    def _handle(self, raw: socket.socket) -> None:
        raw.settimeout(TIMEOUT_S)
        try:
            client = self._context.wrap_socket(raw, server_side=True)
        except (OSError, ssl.SSLError):
            raw.close()  # the client refused the certificate
            return
        with client, socket.create_connection(("127.0.0.1", self._port), TIMEOUT_S) as upstream:
            _pipe(client, upstream)


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A fresh certificate for 127.0.0.1 (EC P-256, one day) and its key, made by openssl."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=test",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    return cert, key
