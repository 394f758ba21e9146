"""One-line configuration errors and unknown-key warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.config import ConfigError, ConfigOverrides, find_codex_home, load_config


def load_text(home: Path, text: str, cli: list[str] | None = None, **flags: object) -> None:
    (home / "config.toml").write_text(text)
    load_config(ConfigOverrides(cwd=home, **flags), cli or [], codex_home=home, environ={})  # type: ignore[arg-type]


def error_of(home: Path, text: str, cli: list[str] | None = None, **flags: object) -> str:
    with pytest.raises(ConfigError) as caught:
        load_text(home, text, cli, **flags)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_config_error_malformed_toml_names_line(tmp_path: Path) -> None:
    text = 'model = "o3"\n\n[tui]\nnotifications true\n'
    message = error_of(tmp_path, text)
    assert message.startswith(f"{tmp_path / 'config.toml'}:4: invalid TOML: ")
    assert "expected '=' after a key" in message.lower()


def test_config_error_bad_enum_value_names_key_and_line(tmp_path: Path) -> None:
    message = error_of(tmp_path, 'model = "o3"\napproval_policy = "sometimes"\n')
    assert message == (
        f'{tmp_path / "config.toml"}:2: approval_policy = "sometimes" is not one of '
        "untrusted, on-failure, on-request, never"
    )


def test_config_error_nested_bad_type_names_dotted_key(tmp_path: Path) -> None:
    text = '[model_providers.mock]\nname = "m"\nrequest_max_retries = "four"\n'
    message = error_of(tmp_path, text)
    assert message == (
        f'{tmp_path / "config.toml"}:3: model_providers.mock.request_max_retries = "four" '
        "is not an integer"
    )


def test_config_error_missing_required_key(tmp_path: Path) -> None:
    message = error_of(tmp_path, '[mcp_servers.docs]\nargs = ["x"]\n')
    assert message == (
        f"{tmp_path / 'config.toml'}:1: mcp_servers.docs.command is required; "
        "add it to [mcp_servers.docs]"
    )


def test_config_error_quoted_project_key(tmp_path: Path) -> None:
    message = error_of(tmp_path, '[projects."/a/b"]\ntrust_level = "maybe"\n')
    assert message == (
        f'{tmp_path / "config.toml"}:2: projects."/a/b".trust_level = "maybe" '
        'is not "trusted" or "untrusted"'
    )


def test_config_error_from_cli_override_names_flag(tmp_path: Path) -> None:
    provider = 'model_providers.mock={name="mock", base_url="http://127.0.0.1:1/v1"}'
    message = error_of(tmp_path, "", cli=[provider, 'model_providers.mock.wire_api="soap"'])
    assert (
        message == '-c model_providers.mock.wire_api="soap": wire_api must be "responses" or "chat"'
    )


def test_config_error_cli_override_without_equals(tmp_path: Path) -> None:
    assert (
        error_of(tmp_path, "", cli=["foo"]) == "-c foo: expected key=value, for example -c model=o3"
    )


def test_config_error_cli_override_plain_string_for_integer(tmp_path: Path) -> None:
    message = error_of(tmp_path, "", cli=["model_context_window=lots"])
    assert message == '-c model_context_window="lots": model_context_window must be an integer'


def test_config_error_legacy_profile_selector(tmp_path: Path) -> None:
    # Codex 0.169 refuses the legacy selector; a missing NAME.config.toml only warns.
    message = error_of(tmp_path, 'profile = "slow"\n')
    assert 'profile = "slow" is no longer supported' in message
    assert "slow.config.toml and pass --profile slow" in message


def test_config_error_unknown_provider(tmp_path: Path) -> None:
    message = error_of(tmp_path, "", cli=["model_provider=mock"])
    assert message.startswith(
        'model_provider "mock" not found; define [model_providers.mock] in config.toml or pass -c'
    )


def test_config_error_bad_sandbox_flag(tmp_path: Path) -> None:
    message = error_of(tmp_path, "", sandbox_mode="everything")
    assert message.startswith("--sandbox everything: must be one of read-only")


def test_config_error_missing_instructions_file(tmp_path: Path) -> None:
    message = error_of(tmp_path, 'experimental_instructions_file = "nope.md"\n')
    assert message.startswith(f"experimental_instructions_file: cannot read {tmp_path / 'nope.md'}")


def test_config_error_codex_home_must_exist(tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    with pytest.raises(ConfigError, match="does not exist; create it with `mkdir -p"):
        find_codex_home({"CODEX_HOME": str(missing)})


def test_config_unknown_keys_warn_and_are_ignored(tmp_path: Path) -> None:
    text = (
        'model = "o3"\nmystery = 1\n[tui]\nnotifications = true\ncolour = "red"\n'
        '[model_providers.mock]\nname = "m"\nsecret_sauce = true\n'
    )
    (tmp_path / "config.toml").write_text(text)
    config = load_config(
        ConfigOverrides(cwd=tmp_path), ["extra.thing=1"], codex_home=tmp_path, environ={}
    )
    assert config.model == "o3"
    assert config.warnings == [
        "unknown config key `mystery` in config.toml (ignored)",
        "unknown config key `tui.colour` in config.toml (ignored)",
        "unknown config key `model_providers.mock.secret_sauce` in config.toml (ignored)",
        "unknown config key `extra` in a -c override (ignored)",
    ]


def test_config_error_file_not_utf8(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_bytes(b'model = "\xff"\n')
    with pytest.raises(ConfigError, match="not UTF-8 text; save it as UTF-8"):
        load_config(ConfigOverrides(cwd=tmp_path), codex_home=tmp_path, environ={})
