"""Every config key the schema knows has a test that shows its effect, named here.

Adding a key to the schema (and so to config.example.toml, see test_config_example) fails
`test_config_keys_each_have_an_effect_test` until the key gets a test in `EFFECT_TESTS`, and
every test named there must exist.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from codex_core.config.schema import known_key_patterns

ROOT = Path(__file__).resolve().parents[2]

EFFECT_TESTS: dict[str, str] = {
    "approval_policy": "tests/integration/test_session_approvals.py::test_session_approvals_denied_tells_model_and_turn_continues",
    "review_model": "tests/e2e/test_codex_review.py::test_review_commit_and_custom_prompts",
    "approvals_reviewer": "tests/integration/test_auto_review.py::test_approvals_reviewer_config_key_answers_patch_approvals",
    "experimental_instructions_file": "tests/unit/test_config_load.py::test_config_instructions_file_replaces_base_instructions",
    "openai_base_url": "tests/compat/test_typescript_sdk.py::test_typescript_sdk_base_url_thread_source_and_max_effort",
    "model_instructions_file": "tests/unit/test_config_load.py::test_config_model_instructions_file_is_0169s_name_for_it",
    "features": "tests/e2e/test_cli_features.py::test_cli_disable_shell_tool_removes_its_tools_and_enable_wins_over_config",
    "plugins": "tests/e2e/test_plugins.py::test_plugins_local_marketplace_install_use_remove",
    "marketplaces": "tests/e2e/test_plugins.py::test_plugins_git_marketplace_is_cloned_and_removed",
    "tui.alternate_screen": "tests/e2e/test_tui_inline.py::test_tui_inline_leaves_the_conversation_on_the_terminal",
    "hide_agent_reasoning": "tests/tui/test_pilot.py::test_hidden_reasoning_still_names_the_status",
    "history.max_bytes": "tests/unit/test_history_jsonl.py::test_history_max_bytes_drops_oldest",
    "history.persistence": "tests/unit/test_history_jsonl.py::test_history_persistence_none_writes_nothing",
    "mcp_servers.<name>.command": "tests/mcp/test_mcp_exec.py::test_mcp_stdio_server_gets_its_command_args_env_env_vars_and_cwd",
    "mcp_servers.<name>.args": "tests/mcp/test_mcp_exec.py::test_mcp_stdio_server_gets_its_command_args_env_env_vars_and_cwd",
    "mcp_servers.<name>.default_tools_approval_mode": "tests/mcp/test_mcp_exec.py::test_mcp_calls_paired_with_results_and_exec_items",
    "mcp_servers.<name>.enabled": "tests/mcp/test_mcp_exec.py::test_mcp_enabled_and_disabled_tool_filters",
    "mcp_servers.<name>.enabled_tools": "tests/mcp/test_mcp_exec.py::test_mcp_enabled_and_disabled_tool_filters",
    "mcp_servers.<name>.disabled_tools": "tests/mcp/test_mcp_exec.py::test_mcp_enabled_and_disabled_tool_filters",
    "mcp_servers.<name>.required": "tests/mcp/test_mcp_exec.py::test_mcp_required_server_down_fails_clearly",
    "mcp_servers.<name>.startup_timeout_sec": "tests/mcp/test_mcp_exec.py::test_mcp_slow_server_past_its_startup_timeout_is_a_warning_without_tools",
    "mcp_servers.<name>.tool_timeout_sec": "tests/mcp/test_mcp_exec.py::test_mcp_tool_timeout_and_tool_that_never_answers",
    "mcp_servers.<name>.url": "tests/mcp/test_mcp_exec.py::test_mcp_streamable_http_server",
    "model_context_window": "tests/tui/test_units.py::test_context_left_percent_uses_last_usage",
    "model_provider": "tests/unit/test_config_errors.py::test_config_error_unknown_provider",
    "model_providers.<name>.base_url": "tests/integration/test_client_streaming.py::test_client_sends_responses_headers_query_params_and_body",
    "model_providers.<name>.http_headers": "tests/integration/test_client_streaming.py::test_client_sends_responses_headers_query_params_and_body",
    "model_providers.<name>.query_params": "tests/integration/test_client_streaming.py::test_client_sends_responses_headers_query_params_and_body",
    "model_providers.<name>.env_key": "tests/integration/test_client_errors.py::test_client_401_names_the_env_var",
    "model_providers.<name>.request_max_retries": "tests/integration/test_client_errors.py::test_client_retries_a_500_then_succeeds",
    "model_providers.<name>.requires_openai_auth": "tests/compat/test_config_0169.py::test_config_codex_api_key_authenticates_openai_auth_providers",
    "model_providers.<name>.stream_idle_timeout_ms": "tests/integration/test_client_errors.py::test_client_idle_stream_times_out_as_a_disconnect",
    "model_providers.<name>.wire_api": "tests/unit/test_config_load.py::test_config_user_provider_defaults_to_chat_wire_api",
    "model_verbosity": "tests/unit/test_config_verbosity.py::test_config_verbosity_from_config_to_the_request",
    "notify": "tests/compat/test_output_0169.py::test_output_human_header_tokens_and_notify",
    "project_doc_max_bytes": "tests/context/test_tools_and_inputs.py::test_global_agents_md_comes_before_the_project_and_cap_applies",
    "projects.<name>.trust_level": "tests/e2e/test_tui_session.py::test_tui_first_run_asks_trust_then_key_and_saves_both",
    "sandbox_mode": "tests/context/test_config_effects.py::test_config_sandbox_mode_decides_whether_a_command_may_write",
    "sandbox_workspace_write.exclude_slash_tmp": "tests/integration/test_sandbox_linux.py::test_sandbox_slash_tmp_follows_exclusion",
    "sandbox_workspace_write.exclude_tmpdir_env_var": "tests/unit/test_sandbox_policy.py::test_policy_roots_follow_tmp_exclusions_and_drop_duplicates",
    "sandbox_workspace_write.network_access": "tests/integration/test_sandbox_linux.py::test_sandbox_network_access_true_allows_connect",
    "sandbox_workspace_write.writable_roots": "tests/integration/test_sandbox_linux.py::test_sandbox_workspace_write_allows_roots_and_fences_git",
    "shell_environment_policy.exclude": "tests/unit/test_shell_env_policy.py::test_shell_env_exclude_is_case_insensitive_glob",
    "shell_environment_policy.ignore_default_excludes": "tests/unit/test_shell_env_policy.py::test_shell_env_ignore_default_excludes_keeps_secrets",
    "shell_environment_policy.include_only": "tests/unit/test_shell_env_policy.py::test_shell_env_include_only_applies_last",
    "shell_environment_policy.inherit": "tests/unit/test_shell_env_policy.py::test_shell_env_core_keeps_only_core_variables",
    "shell_environment_policy.set": "tests/unit/test_shell_env_policy.py::test_shell_env_none_starts_empty_and_set_adds",
    "hooks": "tests/e2e/test_hooks.py::test_hooks_untrusted_skip_silently_trusted_run_changed_stop",
    "skills": "tests/e2e/test_skills.py::test_skills_turned_off_by_config_are_neither_listed_nor_injected",
    "tools.update_plan.enabled": "tests/context/test_plan_offering.py::test_update_plan_offered_only_when_tools_update_plan_enabled",
    "tui.notifications": "tests/tui/test_pilot_commands.py::test_notification_is_sent_when_unfocused_and_enabled",
    "model": "tests/context/test_config_effects.py::test_config_model_and_reasoning_reach_the_request",
    "model_reasoning_effort": "tests/context/test_config_effects.py::test_config_model_and_reasoning_reach_the_request",
    "model_reasoning_summary": "tests/context/test_config_effects.py::test_config_model_and_reasoning_reach_the_request",
    "model_providers.<name>.env_http_headers": "tests/context/test_config_effects.py::test_config_provider_env_http_headers_sent_when_the_variable_is_set",
    "model_providers.<name>.stream_max_retries": "tests/context/test_config_effects.py::test_config_provider_stream_max_retries_reconnects_a_dropped_stream",
    "model_providers.<name>.name": "tests/context/test_config_effects.py::test_config_provider_name_and_key_instructions_in_the_missing_key_error",
    "model_providers.<name>.env_key_instructions": "tests/context/test_config_effects.py::test_config_provider_name_and_key_instructions_in_the_missing_key_error",
    "web_search": "tests/context/test_tools_and_inputs.py::test_web_search_tool_follows_the_setting",
    "mcp_servers.<name>.env": "tests/mcp/test_mcp_exec.py::test_mcp_stdio_server_gets_its_command_args_env_env_vars_and_cwd",
    "mcp_servers.<name>.env_vars": "tests/mcp/test_mcp_exec.py::test_mcp_stdio_server_gets_its_command_args_env_env_vars_and_cwd",
    "mcp_servers.<name>.cwd": "tests/mcp/test_mcp_exec.py::test_mcp_stdio_server_gets_its_command_args_env_env_vars_and_cwd",
    "mcp_servers.<name>.bearer_token_env_var": "tests/mcp/test_mcp_exec.py::test_mcp_http_server_gets_bearer_token_and_headers",
    "mcp_servers.<name>.http_headers": "tests/mcp/test_mcp_exec.py::test_mcp_http_server_gets_bearer_token_and_headers",
    "mcp_servers.<name>.env_http_headers": "tests/mcp/test_mcp_exec.py::test_mcp_http_server_gets_bearer_token_and_headers",
    "mcp_servers.<name>.startup_timeout_ms": "tests/mcp/test_mcp_exec.py::test_mcp_slow_server_past_its_startup_timeout_is_a_warning_without_tools",
    "mcp_servers.<name>.tools.<name>.approval_mode": "tests/mcp/test_mcp_exec.py::test_mcp_per_tool_approval_mode_overrides_the_default",
    "model_auto_compact_token_limit": "tests/context/test_config_effects.py::test_config_auto_compact_token_limit_compacts_a_smaller_history",
    "shell_timeout_ms": "tests/context/test_config_effects.py::test_config_shell_timeout_ms_ends_a_command_without_its_own_timeout",
}


@cache
def functions_in(path: str) -> frozenset[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    )


def test_config_keys_each_have_an_effect_test() -> None:
    keys = {".".join(pattern) for pattern in known_key_patterns()}
    assert sorted(keys - EFFECT_TESTS.keys()) == [], "key without a test"
    assert sorted(EFFECT_TESTS.keys() - keys) == [], "not a key"


def test_config_keys_effect_tests_exist() -> None:
    missing = []
    for key, ref in EFFECT_TESTS.items():
        path, _, name = ref.partition("::")
        if not (ROOT / path).is_file() or name not in functions_in(path):
            missing.append(f"{key}: {ref}")
    assert missing == []
