"""Keys the Codex CLI knows that this codex does not implement: one warning each, never fatal."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.config import ConfigOverrides, load_config
from codex_core.config.unsupported import NOT_IMPLEMENTED


def _load(home: Path, text: str) -> list[str]:
    (home / "config.toml").write_text(text)
    config = load_config(ConfigOverrides(cwd=home), codex_home=home, environ={})
    return config.warnings


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("model_max_output_tokens = 100\n", "model_max_output_tokens"),
        ("model_max_output_tokens = -5\n", "model_max_output_tokens"),  # never validated
        ("disable_response_storage = true\n", "disable_response_storage"),
        ("show_raw_agent_reasoning = true\n", "show_raw_agent_reasoning"),
        ('file_opener = "cursor"\n', "file_opener"),
        ("file_opener = 3\n", "file_opener"),
        # (legacy [profiles.*] tables are ignored whole since Codex 0.169's profile files)
    ],
)
def test_config_unsupported_key_warns_once_and_starts(tmp_path: Path, text: str, key: str) -> None:
    assert _load(tmp_path, text) == [
        f"config key `{key}` is not supported by this codex yet (ignored)"
    ]


def test_config_unsupported_keys_from_a_cli_override_warn_too(tmp_path: Path) -> None:
    config = load_config(
        ConfigOverrides(cwd=tmp_path),
        ["show_raw_agent_reasoning=true"],
        codex_home=tmp_path,
        environ={},
    )
    assert config.warnings == [
        "config key `show_raw_agent_reasoning` is not supported by this codex yet (ignored)"
    ]


def test_config_unsupported_list_matches_the_codex_keys() -> None:
    assert {".".join(path) for path in NOT_IMPLEMENTED} == {
        "model_max_output_tokens",
        "disable_response_storage",
        "show_raw_agent_reasoning",
        "file_opener",
    }
