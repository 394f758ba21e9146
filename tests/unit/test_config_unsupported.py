"""Keys the Codex CLI knows that this codex does not implement: one warning each, never fatal."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.config import ConfigOverrides, load_config
from codex_core.config.schema import ConfigToml
from codex_core.config.unsupported import NO_EFFECT_HERE, NOT_IMPLEMENTED


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


CODEX_0169_TOP_LEVEL_KEYS = """
agents allow_login_shell analytics approval_policy approvals_reviewer apps apps_mcp_product_sku
audio auto_review background_terminal_max_timeout chatgpt_base_url check_for_update_on_startup
cli_auth_credentials_store compact_prompt debug default_permissions desktop
developer_instructions disable_paste_burst experimental_compact_prompt_file
experimental_realtime_start_instructions experimental_realtime_ws_backend_prompt
experimental_realtime_ws_base_url experimental_realtime_ws_model
experimental_realtime_ws_startup_context experimental_thread_config_endpoint
experimental_thread_store experimental_use_unified_exec_tool features feedback file_opener
forced_chatgpt_workspace_id forced_login_method ghost_snapshot hide_agent_reasoning history
hooks include_apps_instructions include_collaboration_mode_instructions
include_environment_context include_permissions_instructions instructions log_dir marketplaces
mcp_oauth_callback_port mcp_oauth_callback_url mcp_oauth_credentials_store mcp_servers memories
model model_auto_compact_token_limit model_auto_compact_token_limit_scope model_catalog_json
model_context_window model_instructions_file model_provider model_providers
model_reasoning_effort model_reasoning_summary model_supports_reasoning_summaries
model_verbosity notice notify openai_base_url oss_provider otel permissions personality
plan_mode_reasoning_effort plugins profile profiles project_doc_fallback_filenames
project_doc_max_bytes project_root_markers projects realtime review_model sandbox_mode
sandbox_workspace_write service_tier shell_environment_policy show_raw_agent_reasoning skills
sqlite_home suppress_unstable_features_warning tool_output_token_limit tool_suggest tools tui
web_search windows
""".split()
"""The top-level properties of Codex 0.169's config.schema.json (its documented keys)."""


def test_config_every_codex_0169_key_has_an_effect_or_a_warning() -> None:
    """Each documented 0.169 key is implemented, warned about, or has no meaning here."""
    implemented = set(ConfigToml.model_fields)
    warned = {path[0] for path in NOT_IMPLEMENTED}
    refused_or_legacy = {"profile", "profiles"}  # see codex_core.config.profiles
    accounted = implemented | warned | set(NO_EFFECT_HERE) | refused_or_legacy
    assert sorted(set(CODEX_0169_TOP_LEVEL_KEYS) - accounted) == []
    assert not implemented & warned and not implemented & set(NO_EFFECT_HERE)


def test_config_keys_without_meaning_here_load_quietly(tmp_path: Path) -> None:
    text = "check_for_update_on_startup = false\n[analytics]\nenabled = false\n[notice]\nx = 1\n"
    assert _load(tmp_path, text) == []


def test_config_0169_keys_not_implemented_are_named(tmp_path: Path) -> None:
    warnings = _load(tmp_path, 'service_tier = "flex"\n[features]\nweb_search_request = true\n')
    assert warnings == [
        "config key `service_tier` is not supported by this codex yet (ignored)",
        "feature `web_search_request` has no effect in this codex (ignored)",
    ]
