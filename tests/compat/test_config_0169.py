"""Profiles, reasoning effort and CODEX_API_KEY as the Codex CLI 0.169 treats them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.compat.conftest import Cli
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn


@pytest.mark.parametrize("binary", ["ours", "rust"])
def test_config_profiles_and_effort(
    binary: str, request: pytest.FixtureRequest, model_server: ModelServer, project: Path
) -> None:
    cli: Cli = request.getfixturevalue(binary)
    config = cli.home / "config.toml"
    (cli.home / "fast.config.toml").write_text(
        'model = "gpt-5.5"\nmodel_reasoning_effort = "none"\n'
    )
    config.write_text('model = "gpt-5.5"\nmodel_reasoning_effort = "low"\n')
    model_server.add(*[turn(message("ok")) for _ in range(4)])
    flags = [*model_server.cli_flags()]  # no model override: the files decide
    done = cli.run("exec", *flags, "--json", "-p", "fast", "hi", cwd=project)
    assert done.returncode == 0, done.stderr
    assert model_server.bodies[-1]["reasoning"]["effort"] == "none"
    done = cli.run(
        "exec", *flags, "--json", "-c", 'model_reasoning_effort="xhigh"', "hi", cwd=project
    )
    assert model_server.bodies[-1]["reasoning"]["effort"] == "xhigh"
    # A legacy table: ignored without -p, refused (nothing sent) with -p naming it.
    config.write_text('model = "gpt-5.5"\n[profiles.old]\nmodel_reasoning_effort = "high"\n')
    done = cli.run("exec", *flags, "--json", "hi", cwd=project)
    assert (
        done.returncode == 0
        and model_server.bodies[-1].get("reasoning", {}).get("effort") != "high"
    )
    sent = len(model_server.requests)
    refused = cli.run("exec", *flags, "--json", "-p", "old", "hi", cwd=project)
    assert refused.returncode == 1 and "old.config.toml" in refused.stderr
    assert len(model_server.requests) == sent


@pytest.mark.parametrize("binary", ["ours", "rust"])
def test_config_codex_api_key_authenticates_openai_auth_providers(
    binary: str, request: pytest.FixtureRequest, model_server: ModelServer, project: Path
) -> None:
    cli: Cli = request.getfixturevalue(binary)
    model_server.add(turn(message("ok")))
    provider = (
        f'model_providers.mock={{name="mock", base_url="{model_server.base_url}", '
        'wire_api="responses", requires_openai_auth=true}'
    )
    done = cli.run(
        "exec",
        "-c",
        provider,
        "-c",
        'model_provider="mock"',
        "-c",
        'model="gpt-5.5"',
        "--json",
        "hi",
        cwd=project,
        env={"OPENAI_API_KEY": "", "CODEX_API_KEY": "sk-from-codex"},
    )
    assert done.returncode == 0, done.stderr
    assert model_server.requests[-1].header("authorization") == "Bearer sk-from-codex"
