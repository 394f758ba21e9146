"""`codex doctor` through the real console script: the provider reachable and not, a broken
config, a missing key and MCP servers that fail to start; exit codes and the statuses of the
checks both have compared with what the Codex CLI 0.169 reported in the same situations
(tests/fixtures/cli_0169/doctor.json).

`python -m tests.e2e.test_cli_doctor record` reruns the situations with `codex-rust` and
rewrites the fixture.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.model_server import ModelServer

pytestmark = pytest.mark.e2e

RECORDED = Path(__file__).parent.parent / "fixtures" / "cli_0169" / "doctor.json"
MCP_SERVER = Path(__file__).parent.parent / "mcp" / "server.py"
SECRET = "sk-doctor-secret-0123456789"
SHARED_IDS = (
    "auth.credentials",
    "config.load",
    "git.environment",
    "installation",
    "mcp.config",
    "network.env",
    "network.provider_reachability",
    "state.paths",
)
"""Check ids both report (0.169 has more: updates, terminal, disk, ...)."""

SITUATIONS = ("reachable", "unreachable", "broken_config", "no_key", "mcp_unresolvable")


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def write_config(home: Path, situation: str, base_url: str) -> dict[str, str]:
    """config.toml for `situation`; the environment to run doctor in."""
    if situation == "unreachable":
        base_url = f"http://127.0.0.1:{closed_port()}/v1"
    # danger-full-access: the verdict must not depend on this machine's sandbox support
    text = (
        'model = "gpt-5.5"\nmodel_provider = "mock"\nsandbox_mode = "danger-full-access"\n'
        f'[model_providers.mock]\nname = "mock"\n'
        f'base_url = "{base_url}"\nenv_key = "OPENAI_API_KEY"\nwire_api = "responses"\n'
    )
    if situation == "broken_config":
        text += "model = [\n"
    if situation == "mcp_unresolvable":
        text += '[mcp_servers.broken]\ncommand = "/nonexistent/mcp-server"\n'
    (home / "config.toml").write_text(text)
    return {} if situation == "no_key" else {"OPENAI_API_KEY": SECRET}


def doctor(binary: str, home: Path, env: dict[str, str], *args: str) -> tuple[int, Any, str]:
    """Exit code, parsed `--json` report and stderr."""
    environ = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY",)}
    environ.update(CODEX_HOME=str(home), RUST_BACKTRACE="0", **env)
    done = subprocess.run(
        [binary, "doctor", "--json", *args],
        cwd=home,
        env=environ,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=90,
    )
    return done.returncode, json.loads(done.stdout), done.stderr


def outcome(binary: str, home: Path, situation: str, base_url: str) -> dict[str, Any]:
    env = write_config(home, situation, base_url)
    code, report, _ = doctor(binary, home, env)
    return {
        "exit": code,
        "statuses": {
            check_id: report["checks"][check_id]["status"]
            for check_id in SHARED_IDS
            if check_id in report["checks"]
        },
    }


@pytest.fixture
def provider() -> Iterator[ModelServer]:
    with ModelServer(models=["gpt-5.5"]) as server:
        yield server


@pytest.mark.parametrize("situation", SITUATIONS)
def test_cli_doctor_exit_code_and_statuses_as_0169(
    situation: str, codex_bin: Path, codex_home: Path, provider: ModelServer
) -> None:
    recorded = json.loads(RECORDED.read_text())["situations"][situation]
    ours = outcome(str(codex_bin), codex_home, situation, provider.base_url)
    assert ours["exit"] == recorded["exit"]
    assert set(ours["statuses"]) == set(SHARED_IDS) - (
        {"auth.credentials", "mcp.config"} if situation == "broken_config" else set()
    )
    for check_id, status in recorded["statuses"].items():
        if check_id in ours["statuses"]:
            assert ours["statuses"][check_id] == status, (check_id, ours)


def test_cli_doctor_json_is_redacted_and_shaped_as_0169(
    codex_bin: Path, codex_home: Path, provider: ModelServer
) -> None:
    env = write_config(codex_home, "reachable", provider.base_url)
    with (codex_home / "config.toml").open("a") as config:
        config.write('query_params = { token = "abc" }\n')
    code, report, stderr = doctor(str(codex_bin), codex_home, env)
    assert code == 0, stderr
    assert set(report) == {
        "schemaVersion",
        "generatedAt",
        "overallStatus",
        "codexVersion",
        "checks",
    }
    assert report["schemaVersion"] == 1 and report["overallStatus"] == "ok"
    for check_id, check in report["checks"].items():
        assert set(check) == {
            "id",
            "category",
            "status",
            "summary",
            "details",
            "remediation",
            "durationMs",
        }
        assert check["id"] == check_id
    text = json.dumps(report)
    assert SECRET not in text and "token=abc" not in text
    reach = report["checks"]["network.provider_reachability"]["details"]
    assert reach["mock API route probe"].endswith("/v1/<redacted> returned HTTP 200")
    assert [r.path for r in provider.requests] == []  # probes are HEAD/GET only, no model call


def test_cli_doctor_human_report_and_network_only(
    codex_bin: Path, codex_home: Path, provider: ModelServer
) -> None:
    env = write_config(codex_home, "unreachable", provider.base_url)
    environ = {**os.environ, "CODEX_HOME": str(codex_home), **env}
    done = subprocess.run(
        [str(codex_bin), "doctor", "--ascii"],
        env=environ,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert done.returncode == 1
    assert "[FAIL] reachability" in done.stdout
    assert "connect failed" in done.stdout and SECRET not in done.stdout
    assert done.stdout.rstrip().endswith("1 fail · failed")
    code, report, _ = doctor(str(codex_bin), codex_home, env, "--network-only")
    assert code == 1
    assert set(report["checks"]) == {
        "config.load",
        "network.env",
        "network.provider_reachability",
    }


def test_cli_doctor_starts_mcp_servers(
    codex_bin: Path, codex_home: Path, provider: ModelServer
) -> None:
    env = write_config(codex_home, "reachable", provider.base_url)
    base = (codex_home / "config.toml").read_text()
    crashes = "[mcp_servers.crashes]\ncommand = 'false'\n"
    with (codex_home / "config.toml").open("a") as config:
        config.write(
            f"[mcp_servers.good]\ncommand = {json.dumps(sys.executable)}\n"
            f"args = [{json.dumps(str(MCP_SERVER))}, 'stdio']\n" + crashes
        )
    code, report, stderr = doctor(str(codex_bin), codex_home, env)
    mcp = report["checks"]["mcp.config"]
    assert (code, mcp["status"]) == (0, "warning"), stderr
    assert mcp["details"]["good"].startswith("started (")
    assert "crashes" in mcp["summary"] and "good" not in mcp["summary"]
    # the crashing one is required now (alone: starting the SDK server again proves nothing)
    (codex_home / "config.toml").write_text(base + crashes + "required = true\n")
    code, report, _ = doctor(str(codex_bin), codex_home, env)
    assert (code, report["checks"]["mcp.config"]["status"]) == (1, "fail")


def test_cli_doctor_flags_a_codex_home_others_can_write(
    codex_bin: Path, codex_home: Path, provider: ModelServer
) -> None:
    env = write_config(codex_home, "reachable", provider.base_url)
    (codex_home / "auth.json").write_text("{}")
    (codex_home / "auth.json").chmod(0o644)
    codex_home.chmod(0o777)
    try:
        code, report, _ = doctor(str(codex_bin), codex_home, env)
    finally:
        codex_home.chmod(0o700)
    state = report["checks"]["state.paths"]
    assert (code, state["status"]) == (0, "warning")
    assert "chmod go-w" in state["remediation"] and "chmod 600" in state["remediation"]


def record() -> None:
    """Run SITUATIONS with codex-rust and write the fixture (needs `codex-rust` on PATH)."""
    import pwd
    import shutil
    import tempfile

    base = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "codex-compat"
    base.mkdir(parents=True, exist_ok=True)
    results = {}
    with ModelServer(models=["gpt-5.5"]) as server:
        for situation in SITUATIONS:
            home = Path(tempfile.mkdtemp(prefix="home-", dir=base))
            try:
                results[situation] = outcome("codex-rust", home, situation, server.base_url)
            finally:
                shutil.rmtree(home, ignore_errors=True)
    version = subprocess.run(["codex-rust", "--version"], capture_output=True, text=True)
    RECORDED.write_text(
        json.dumps({"recorded_with": version.stdout.strip(), "situations": results}, indent=1)
        + "\n"
    )


if __name__ == "__main__" and sys.argv[1:] == ["record"]:
    record()
