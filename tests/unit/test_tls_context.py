"""The https providers' TLS context (issue 29): built once per process, in a thread started
as soon as a configuration names an https provider; plain http loads no CA bundle."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.support.fresh_python import python_output


def _probe(code: str, **env: str) -> object:
    lines = python_output(code, env={**os.environ, **env}).splitlines()
    return json.loads(lines[-1])


def test_tls_context_plain_http_starts_nothing() -> None:
    code = (
        "import json, sys, threading\n"
        "from codex_core import tls_context\n"
        "tls_context.prepare_for('http://127.0.0.1:1/v1')\n"
        "print(json.dumps([t.name for t in threading.enumerate()] + ['httpx' in sys.modules]))\n"
    )
    assert _probe(code) == ["MainThread", False]


def test_tls_context_https_is_built_in_a_thread_once() -> None:
    code = (
        "import json, sys, threading\n"
        "from codex_core import tls_context\n"
        "tls_context.prepare_for('https://api.openai.com/v1')\n"
        "names = [t.name for t in threading.enumerate()]\n"
        "tls_context.prepare_for('https://example.com/v1')  # once per process\n"
        "first = tls_context.shared_context()\n"
        "from codex_core.client.model_client import _new_http_client\n"
        "used = _new_http_client()._ssl_context()\n"
        "print(json.dumps([names, first is tls_context.shared_context(), used is first,\n"
        "                  first.verify_mode.name, len(first.get_ca_certs()) > 100,\n"
        "                  'httpx' in sys.modules]))\n"
    )
    assert _probe(code) == [["MainThread", "codex-tls"], True, True, "CERT_REQUIRED", True, False]


def test_tls_context_is_the_one_httpx_built() -> None:
    """The same CA certificates, checks and protocols as `httpx.create_ssl_context()` (what
    the model client used until issue 29); ALPN offers HTTP/1.1 as httpcore did."""
    code = (
        "import json, ssl, httpx\n"
        "from codex_core import tls_context\n"
        "ours, theirs = tls_context.create(), httpx.create_ssl_context()\n"
        "def facts(c):\n"
        "    return [c.verify_mode.name, c.check_hostname, c.minimum_version.name,\n"
        "            c.options & ~0, sorted(x['serialNumber'] for x in c.get_ca_certs())]\n"
        "print(json.dumps(facts(ours) == facts(theirs)))\n"
    )
    assert _probe(code) is True


def test_tls_context_a_bad_bundle_fails_where_the_client_is_made(tmp_path: Path) -> None:
    """SSL_CERT_FILE naming no file: the thread's failure is not swallowed — making the
    client raises what building it raises (as when the context was built there)."""
    code = (
        "import json\n"
        "from codex_core import tls_context\n"
        "tls_context.prepare_for('https://api.openai.com/v1')\n"
        "try:\n"
        "    tls_context.shared_context()\n"
        "except OSError as err:\n"
        "    print(json.dumps(type(err).__name__))\n"
    )
    missing = str(tmp_path / "missing.pem")
    assert _probe(code, SSL_CERT_FILE=missing) == "FileNotFoundError"
