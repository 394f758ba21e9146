"""`codex features`, `--enable`/`--disable FEATURE` and `--strict-config` through the real
console script, compared with what the Codex CLI 0.169 printed and wrote for the same steps
(tests/fixtures/cli_0169/features.json).

`python -m tests.e2e.test_cli_features record` reruns the steps with `codex-rust` and
rewrites the fixture.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

pytestmark = pytest.mark.e2e

RECORDED = Path(__file__).parent.parent / "fixtures" / "cli_0169" / "features.json"

FEATURE_STEPS: list[list[str]] = [
    ["features", "list"],
    ["--disable", "shell_tool", "features", "list"],
    ["features", "--enable", "view_image", "list", "-c", "features.unified_exec=false"],
    ["features", "list", "--disable", "no_such_feature"],
    ["--enable", "no_such_feature", "exec", "hi"],
    ["features", "enable", "chronicle"],
    ["features", "disable", "shell_tool"],
    ["features", "disable", "chronicle"],
    ["features", "enable", "no_such_feature"],
    ["--strict-config", "features", "list"],
]
"""Run one after the other on one CODEX_HOME; each outcome keeps config.toml after it."""

STRICT_CONFIGS: dict[str, str] = {
    "top": "bogus_key_zz = 1\n",
    "nested": 'model = "gpt-5.5"\n\n[tui]\nbogus_nested = 2\n',
    "override": "",
}
"""config.toml of each `exec --strict-config` case (`override` adds `-c zzk=1`)."""


def run(binary: str, args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-test"}
    env["RUST_BACKTRACE"] = "0"
    return subprocess.run(
        [binary, *args],
        cwd=home,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def config_text(home: Path) -> str:
    path = home / "config.toml"
    return path.read_text() if path.exists() else ""


def feature_outcomes(binary: str, home: Path) -> list[dict[str, Any]]:
    """Each FEATURE_STEP: exit code, stdout lines, first stderr line and config.toml after."""
    results = []
    for step in FEATURE_STEPS:
        done = run(binary, step, home)
        results.append(
            {
                "args": step,
                "exit": done.returncode,
                "stdout": done.stdout.splitlines(),
                "stderr": next(iter(done.stderr.strip().splitlines()), ""),
                "config": config_text(home),
            }
        )
    return results


def strict_outcomes(binary: str, home: Path, server: ModelServer) -> dict[str, dict[str, Any]]:
    """`exec --strict-config` with each of STRICT_CONFIGS: exit code, stderr (CODEX_HOME as
    `<HOME>`) and how many model requests were made."""
    results = {}
    for case, text in STRICT_CONFIGS.items():
        (home / "config.toml").write_text(text)
        before = len(server.requests)
        extra = ["-c", "zzk=1"] if case == "override" else []
        args = ["exec", "--skip-git-repo-check", "--strict-config", *server.cli_flags(), *extra]
        done = run(binary, [*args, "hi"], home)
        results[case] = {
            "exit": done.returncode,
            "stderr": done.stderr.strip().replace(str(home), "<HOME>"),
            "requests": len(server.requests) - before,
        }
    return results


def tool_names(body: dict[str, Any]) -> set[str]:
    return {str(tool.get("name")) for tool in body.get("tools", [])}


def test_cli_features_list_enable_disable_as_0169(codex_bin: Path, codex_home: Path) -> None:
    recorded = json.loads(RECORDED.read_text())["features"]
    ours = feature_outcomes(str(codex_bin), codex_home)
    for mine, theirs in zip(ours, recorded, strict=True):
        assert mine["args"] == theirs["args"]
        assert mine["exit"] == theirs["exit"], mine
        assert mine["config"] == theirs["config"], mine
        if "list" in mine["args"] and mine["exit"] == 0:
            # ours lists the features it honours: each line is the one 0.169 prints
            assert mine["stdout"], mine
            assert set(mine["stdout"]) <= set(theirs["stdout"]), mine
        else:
            assert mine["stdout"] == theirs["stdout"], mine
        if mine["exit"] != 0:
            assert mine["stderr"] == theirs["stderr"], mine


def test_cli_strict_config_stops_before_any_request_as_0169(
    codex_bin: Path, codex_home: Path, model_server: ModelServer
) -> None:
    recorded = json.loads(RECORDED.read_text())["strict"]
    assert strict_outcomes(str(codex_bin), codex_home, model_server) == recorded


def test_cli_unknown_key_without_strict_config_warns_and_runs(
    codex_bin: Path, codex_home: Path, model_server: ModelServer
) -> None:
    model_server.add(turn(message("fine")))
    (codex_home / "config.toml").write_text("bogus_key_zz = 1\n")
    args = ["exec", "--skip-git-repo-check", *model_server.cli_flags(), "hi"]
    done = run(str(codex_bin), args, codex_home)
    assert done.returncode == 0, done.stderr
    assert "bogus_key_zz" in done.stderr
    assert done.stdout.strip() == "fine"


def test_cli_disable_shell_tool_removes_its_tools_and_enable_wins_over_config(
    codex_bin: Path, codex_home: Path, model_server: ModelServer
) -> None:
    model_server.add(turn(message("a")), turn(message("b")), turn(message("c")))
    base = ["exec", "--skip-git-repo-check", *model_server.cli_flags()]
    assert run(str(codex_bin), [*base, "plain"], codex_home).returncode == 0
    assert (
        run(str(codex_bin), ["--disable", "shell_tool", *base, "off"], codex_home).returncode == 0
    )
    (codex_home / "config.toml").write_text("[features]\nshell_tool = false\n")
    done = run(str(codex_bin), [*base, "--enable", "shell_tool", "back"], codex_home)
    assert done.returncode == 0, done.stderr
    plain, off, back = (tool_names(body) for body in model_server.bodies)
    assert {"exec_command", "write_stdin"} <= plain
    assert not {"exec_command", "write_stdin"} & off
    assert back == plain


def record() -> None:
    """Run the steps with codex-rust and write the fixture (needs `codex-rust` on PATH)."""
    import pwd
    import shutil
    import tempfile

    base = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "codex-compat"
    base.mkdir(parents=True, exist_ok=True)
    homes = [Path(tempfile.mkdtemp(prefix="home-", dir=base)) for _ in range(2)]
    try:
        features = feature_outcomes("codex-rust", homes[0])
        with ModelServer() as server:
            strict = strict_outcomes("codex-rust", homes[1], server)
        version = subprocess.run(["codex-rust", "--version"], capture_output=True, text=True)
        RECORDED.parent.mkdir(parents=True, exist_ok=True)
        document = {"recorded_with": version.stdout.strip(), "features": features, "strict": strict}
        RECORDED.write_text(json.dumps(document, indent=1) + "\n")
    finally:
        for home in homes:
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__" and sys.argv[1:] == ["record"]:
    record()
