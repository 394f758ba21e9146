"""Keys the Codex CLI knows that this codex does not implement yet: warned about, then dropped.

Start-up never stops for them (whatever their value): each present key gets one warning that
names it, and nothing downstream sees it.
"""

from __future__ import annotations

from typing import Any

from codex_core.config.errors import render_key

NOT_IMPLEMENTED: tuple[tuple[str, ...], ...] = (
    ("model_max_output_tokens",),  # Codex 0.169 ignores it too and sends no max_output_tokens
    ("disable_response_storage",),  # likewise ignored by 0.169; requests always send store=false
    ("show_raw_agent_reasoning",),
    ("file_opener",),
    # The rest of Codex 0.169's documented top-level keys (its config.schema.json) that this
    # codex has no counterpart for: each present one is named in a warning, never silently
    # defaulted. Keys with an effect here are in `codex_core.config.schema`.
    *(
        (key,)
        for key in (
            "agents",
            "allow_login_shell",
            "apps",
            "apps_mcp_product_sku",
            "audio",
            "auto_review",
            "background_terminal_max_timeout",
            "chatgpt_base_url",
            "cli_auth_credentials_store",
            "compact_prompt",
            "debug",
            "default_permissions",
            "developer_instructions",
            "disable_paste_burst",
            "experimental_compact_prompt_file",
            "experimental_realtime_start_instructions",
            "experimental_realtime_ws_backend_prompt",
            "experimental_realtime_ws_base_url",
            "experimental_realtime_ws_model",
            "experimental_realtime_ws_startup_context",
            "experimental_thread_config_endpoint",
            "experimental_thread_store",
            "experimental_use_unified_exec_tool",
            "forced_chatgpt_workspace_id",
            "forced_login_method",
            "include_apps_instructions",
            "include_collaboration_mode_instructions",
            "include_environment_context",
            "include_permissions_instructions",
            "instructions",
            "log_dir",
            "mcp_oauth_callback_port",
            "mcp_oauth_callback_url",
            "mcp_oauth_credentials_store",
            "memories",
            "model_auto_compact_token_limit_scope",
            "model_catalog_json",
            "model_supports_reasoning_summaries",
            "oss_provider",
            "otel",
            "permissions",
            "personality",
            "plan_mode_reasoning_effort",
            "project_doc_fallback_filenames",
            "project_root_markers",
            "realtime",
            "service_tier",
            "sqlite_home",
            "tool_output_token_limit",
            "tool_suggest",
        )
    ),
)
NO_EFFECT_HERE: tuple[str, ...] = (
    "analytics",  # this codex collects no analytics, whatever the value
    "feedback",  # nor feedback
    "check_for_update_on_startup",  # nor checks for updates
    "suppress_unstable_features_warning",  # nor has unstable-feature warnings
    "notice",  # acknowledgement state Codex 0.169 writes into config.toml itself
    "desktop",  # opaque settings of the desktop app, stored alongside
    "ghost_snapshot",  # legacy; Codex 0.169 keeps it only so old files load
    "windows",  # Windows-only sandbox settings; this codex runs on Linux and macOS
)
"""Codex 0.169 keys whose every value already describes what this codex does (or that only
another program reads): dropped without a warning, so a config.toml shared with the Codex CLI
starts quietly."""
PROFILE_NOT_IMPLEMENTED = ("disable_response_storage",)


def drop_unsupported_keys(data: dict[str, Any]) -> list[str]:
    """Remove the not-implemented keys from a parsed config table; one warning per key found."""
    warnings: list[str] = []
    for key in NO_EFFECT_HERE:
        data.pop(key, None)
    for path in NOT_IMPLEMENTED:
        if _pop(data, path):
            warnings.append(_warning(path))
    profiles = data.get("profiles")
    if isinstance(profiles, dict):
        for name, profile in profiles.items():
            if not isinstance(profile, dict):
                continue
            for key in PROFILE_NOT_IMPLEMENTED:
                if profile.pop(key, None) is not None:
                    warnings.append(_warning(("profiles", name, key)))
    return warnings


def _pop(table: dict[str, Any], path: tuple[str, ...]) -> bool:
    for part in path[:-1]:
        inner = table.get(part)
        if not isinstance(inner, dict):
            return False
        table = inner
    if path[-1] not in table:
        return False
    del table[path[-1]]
    return True


def _warning(path: tuple[str, ...]) -> str:
    return f"config key `{render_key(path)}` is not supported by this codex yet (ignored)"
