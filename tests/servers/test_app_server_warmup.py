"""The app-server's warm-up thread: it ends before the interpreter finalises, and it builds
the TLS context early only for a provider that may be on https.

A daemon thread still importing or inside an extension module while Python finalises can
crash the process (CI saw `codex app-server` exit with -11 after its client closed stdin).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from codex_tui.app.app_server_process import BOOT


def test_process_exit_waits_for_the_warmup(tmp_path: Path) -> None:
    done = tmp_path / "warm-done"
    script = textwrap.dedent(
        f"""
        import time
        from codex_core.servers.app_server import warmup

        def slow(*args):
            time.sleep(0.4)
            open({str(done)!r}, "w").close()

        warmup._warm = slow
        warmup.start_warmup()
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert done.exists(), "the process finalised while the warm-up was still running"


def _tls_started_in_the_tui_child(tmp_path: Path, config: list[str]) -> bool:
    """Whether the TUI's app-server child (spawned as the TUI spawns it, given `config` as
    its `-c` overrides) started building the TLS context before its first thread: it reads
    only `initialize` before its input ends."""
    home, dump = tmp_path / "tls-home", tmp_path / "tls.json"
    home.mkdir()
    keep = (
        "import atexit, json, sys; atexit.register(lambda: open("
        f"{str(dump)!r}, 'w').write(json.dumps("
        "getattr(sys.modules.get('codex_core.tls_context'), '_thread', None) is not None))); "
    )
    initialize = {"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "t"}}}
    done = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            "-c",
            keep + BOOT.format(path=list(sys.path)),
            json.dumps({"config": config, "flags": {}}),
        ],
        input=json.dumps(initialize).encode() + b"\n",
        cwd=tmp_path,
        env={**os.environ, "CODEX_HOME": str(home)},
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert b'"id":1' in done.stdout
    started: bool = json.loads(dump.read_text(encoding="utf-8"))
    return started


@pytest.mark.parametrize(
    ("base_url", "built"), [("http://127.0.0.1:1/v1", False), ("https://127.0.0.1:1/v1", True)]
)
def test_the_child_builds_tls_early_only_for_https(
    tmp_path: Path, base_url: str, built: bool
) -> None:
    provider = f'model_providers.local={{name="local",base_url="{base_url}"}}'
    assert _tls_started_in_the_tui_child(tmp_path, [provider, 'model_provider="local"']) is built


def test_the_child_builds_tls_early_for_the_default_provider(tmp_path: Path) -> None:
    assert _tls_started_in_the_tui_child(tmp_path, []) is True


def test_a_client_leaving_at_once_never_crashes_the_server(tmp_path: Path) -> None:
    """`codex app-server` whose client sends `initialize` and closes stdin: the default
    provider is https, so the TLS context is being built (in OpenSSL) as the process ends.
    Its exit join was registered from the warm-up thread, sometimes only once the process
    was finalising: 3 of 12 such runs ended with SIGSEGV."""
    codex = str(Path(sys.executable).parent / "codex")
    initialize = {"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "t"}}}
    env = {**os.environ, "CODEX_HOME": str(tmp_path)}
    env.pop("OPENAI_BASE_URL", None)
    codes = [
        subprocess.run(
            [codex, "app-server"],
            input=json.dumps(initialize).encode() + b"\n",
            env=env,
            capture_output=True,
            timeout=60,
        ).returncode
        for _ in range(8)
    ]
    assert codes == [0] * 8
