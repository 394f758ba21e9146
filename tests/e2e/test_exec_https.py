"""`codex exec` against an https provider, end to end (issue 29: the model client's own
HTTP/1.1 over TLS): the CA bundle named by SSL_CERT_FILE is trusted as httpx trusted it, the
connection opened while the prompt is assembled carries the request (one TLS connection),
and an untrusted certificate is one clear line, nothing sent."""

from __future__ import annotations

import os
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.http_proxy import TlsFront, self_signed
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

CODEX = str(Path(sys.executable).parent / "codex")


@pytest.fixture
def https(tmp_path: Path) -> Iterator[tuple[ModelServer, TlsFront, Path]]:
    cert, key = self_signed(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    with ModelServer([turn(message("over tls"))]) as server:
        port = int(server.base_url.split(":")[2].split("/")[0])
        with TlsFront(context, port) as front:
            yield server, front, cert


def _exec(
    server: ModelServer, front: TlsFront, tmp_path: Path, cert: Path | None
) -> subprocess.CompletedProcess[str]:
    """`codex exec "hi"` trusting `cert` (None: certifi's bundle, as by default)."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    flags = server.cli_flags(base_url=front.base_url, request_max_retries=0)
    variables = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    variables.pop("SSL_CERT_DIR", None)
    variables.pop("SSL_CERT_FILE", None)
    variables.update(CODEX_HOME=str(home), OPENAI_API_KEY="sk-test")
    if cert is not None:
        variables["SSL_CERT_FILE"] = str(cert)
    return subprocess.run(
        [CODEX, "exec", "--skip-git-repo-check", *flags, "hi"],
        cwd=tmp_path, env=variables, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_exec_https_trusts_ssl_cert_file_and_sends_on_one_connection(
    https: tuple[ModelServer, TlsFront, Path], tmp_path: Path
) -> None:
    server, front, cert = https
    done = _exec(server, front, tmp_path, cert)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "over tls" in done.stdout
    assert len(server.requests) == 1 and front.connections == 1


def test_exec_https_an_untrusted_certificate_is_one_line(
    https: tuple[ModelServer, TlsFront, Path], tmp_path: Path
) -> None:
    server, front, _ = https
    done = _exec(server, front, tmp_path, None)
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if "CERTIFICATE_VERIFY_FAILED" in line]
    assert len(errors) == 1 and errors[0].startswith(
        f"ERROR: Could not reach mock at {front.base_url}"
    )
    assert "Traceback" not in done.stderr and server.requests == []
