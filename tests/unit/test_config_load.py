"""Loading config.toml: defaults, precedence, profiles, -c overrides, providers, trust."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.config import (
    Config,
    ConfigError,
    ConfigOverrides,
    HistoryConfig,
    McpServerConfig,
    find_codex_home,
    load_config,
    parse_cli_overrides,
)
from codex_core.config.shell_env import ShellEnvironmentPolicy
from codex_core.model_provider import ModelProviderInfo
from codex_core.protocol.common import (
    DangerFullAccessPolicy,
    ReadOnlyPolicy,
    WorkspaceWritePolicy,
)

MOCK_PROVIDER = (
    'model_providers.mock={name="mock", base_url="http://127.0.0.1:1/v1", '
    'env_key="OPENAI_API_KEY", wire_api="responses"}'
)


def load(
    home: Path,
    text: str = "",
    cli: list[str] | None = None,
    overrides: ConfigOverrides | None = None,
    environ: dict[str, str] | None = None,
    cwd: Path | None = None,
) -> Config:
    if text:
        (home / "config.toml").write_text(text)
    ov = overrides or ConfigOverrides()
    if ov.cwd is None:
        ov.cwd = cwd or home
    return load_config(ov, cli or [], codex_home=home, environ=environ or {})


def test_config_defaults_without_a_file(tmp_path: Path) -> None:
    config = load(tmp_path)
    assert config.model == "gpt-5-codex"
    assert config.model_provider_id == "openai"
    assert config.model_provider.wire_api == "responses"
    assert config.model_provider.resolved_base_url() == "https://api.openai.com/v1"
    assert config.approval_policy == "on-request"
    assert config.sandbox_policy == ReadOnlyPolicy()
    assert not config.sandbox_mode_explicit and not config.approval_policy_explicit
    assert config.shell_environment_policy == ShellEnvironmentPolicy()
    assert config.shell_timeout_ms == 10_000
    assert config.project_doc_max_bytes == 32_768
    assert config.history == HistoryConfig("save-all", None)
    assert config.model_reasoning_summary == "auto"
    assert config.cwd == tmp_path.resolve()
    assert config.codex_home == tmp_path
    assert config.warnings == []


def test_config_precedence_flag_beats_cli_beats_profile_beats_file(tmp_path: Path) -> None:
    (tmp_path / "p.config.toml").write_text('model = "profile-model"\n')
    text = 'model = "file-model"\n'
    profile = ConfigOverrides(profile="p")
    assert load(tmp_path, text, overrides=profile).model == "profile-model"
    assert load(tmp_path, text, cli=["model=cli-model"], overrides=profile).model == "cli-model"
    flag = ConfigOverrides(model="flag-model", profile="p")
    assert load(tmp_path, text, cli=["model=cli-model"], overrides=flag).model == "flag-model"
    assert load(tmp_path, text).model == "file-model"


def test_config_precedence_for_approval_and_sandbox(tmp_path: Path) -> None:
    (tmp_path / "safe.config.toml").write_text(
        'approval_policy = "untrusted"\nsandbox_mode = "read-only"\n'
    )
    text = 'approval_policy = "never"\nsandbox_mode = "danger-full-access"\n'
    safe = ConfigOverrides(profile="safe")
    config = load(tmp_path, text, overrides=safe)
    assert (config.approval_policy, config.sandbox_policy) == ("untrusted", ReadOnlyPolicy())
    config = load(tmp_path, text, cli=["approval_policy=on-failure"], overrides=safe)
    assert config.approval_policy == "on-failure"
    assert config.sandbox_policy == ReadOnlyPolicy()
    flags = ConfigOverrides(
        approval_policy="never", sandbox_mode="danger-full-access", profile="safe"
    )
    config = load(tmp_path, text, cli=["approval_policy=on-failure"], overrides=flags)
    assert (config.approval_policy, config.sandbox_policy) == ("never", DangerFullAccessPolicy())
    assert config.approval_policy_explicit and config.sandbox_mode_explicit


def test_config_profile_flag_layers_its_file_and_legacy_tables_are_ignored(
    tmp_path: Path,
) -> None:
    (tmp_path / "b.config.toml").write_text(
        'model = "model-b"\nmodel_reasoning_effort = "high"\n'
        'model_reasoning_summary = "detailed"\nmodel_verbosity = "low"\n'
    )
    text = 'model = "base"\n[profiles.a]\nmodel = "model-a"\n'
    config = load(tmp_path, text, overrides=ConfigOverrides(profile="b"))
    assert config.profile == "b"
    assert (config.model, config.model_reasoning_effort) == ("model-b", "high")
    assert (config.model_reasoning_summary, config.model_verbosity) == ("detailed", "low")
    plain = load(tmp_path, text)
    assert (plain.profile, plain.model) == (None, "base")
    assert [w for w in plain.warnings if "legacy profiles (a)" in w] == plain.warnings[:1]


def test_config_legacy_profile_selector_and_table_with_flag_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r'profile = "x" is no longer supported'):
        load(tmp_path, cli=["profiles.x.model=from-x", "profile=x"])
    with pytest.raises(ConfigError, match=r"--profile a: .* move those settings into .*a\.config"):
        load(tmp_path, '[profiles.a]\nmodel = "m"\n', overrides=ConfigOverrides(profile="a"))


def test_config_dotted_cli_override_with_inline_provider_table(tmp_path: Path) -> None:
    config = load(tmp_path, cli=[MOCK_PROVIDER, 'model_provider="mock"', "model=o3"])
    assert config.model == "o3"
    assert config.model_provider_id == "mock"
    assert config.model_provider == ModelProviderInfo(
        name="mock",
        base_url="http://127.0.0.1:1/v1",
        env_key="OPENAI_API_KEY",
        wire_api="responses",
    )


def test_config_cli_override_values_are_toml_or_plain_strings() -> None:
    assert parse_cli_overrides(
        [
            "model=o3",
            'model="o3"',
            "model_context_window=1000",
            "hide_agent_reasoning=true",
            'notify=["a", "b"]',
            "shell_environment_policy.set={A = 1}",
            "a.b.c = spaced value ",
            'projects."/x/y.z".trust_level=trusted',
        ]
    ) == [
        ("model", "o3"),
        ("model", "o3"),
        ("model_context_window", 1000),
        ("hide_agent_reasoning", True),
        ("notify", ["a", "b"]),
        ("shell_environment_policy.set", {"A": 1}),
        ("a.b.c", "spaced value"),
        ('projects."/x/y.z".trust_level', "trusted"),
    ]


def test_config_cli_override_nested_key_merges_into_file_table(tmp_path: Path) -> None:
    text = '[sandbox_workspace_write]\nwritable_roots = ["/data"]\n'
    config = load(
        tmp_path,
        text,
        cli=["sandbox_workspace_write.network_access=true", "sandbox_mode=workspace-write"],
    )
    assert config.sandbox_policy == WorkspaceWritePolicy(
        writable_roots=["/data"], network_access=True
    )


def test_config_cli_override_quoted_key_sets_project_trust(tmp_path: Path) -> None:
    project = tmp_path / "my.project"
    project.mkdir()
    config = load(tmp_path, cli=[f'projects."{project}".trust_level=trusted'], cwd=project)
    assert config.project_trust_level() == "trusted"


def test_config_workspace_write_gets_its_table(tmp_path: Path) -> None:
    text = (
        'sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\n'
        'writable_roots = ["/opt/cache", "rel"]\nnetwork_access = true\n'
        "exclude_tmpdir_env_var = true\nexclude_slash_tmp = true\n"
    )
    config = load(tmp_path, text)
    assert config.sandbox_policy == WorkspaceWritePolicy(
        writable_roots=["/opt/cache", str(tmp_path.resolve() / "rel")],
        network_access=True,
        exclude_tmpdir_env_var=True,
        exclude_slash_tmp=True,
    )
    assert config.sandbox_mode_explicit


def test_config_openai_base_url_from_environment(tmp_path: Path) -> None:
    config = load(tmp_path, environ={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
    assert config.model_provider.resolved_base_url() == "http://127.0.0.1:9/v1"


def test_config_os_environ_used_when_no_environ_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8/v1")
    monkeypatch.setenv("CODEX_HOME", str(tmp_path))
    (tmp_path / "config.toml").write_text('model = "from-env-home"\n')
    config = load_config(ConfigOverrides(cwd=tmp_path))
    assert config.codex_home == tmp_path.resolve()
    assert config.model == "from-env-home"
    assert config.model_provider.resolved_base_url() == "http://127.0.0.1:8/v1"


def test_config_oss_flag_selects_local_provider_and_model(tmp_path: Path) -> None:
    config = load(tmp_path, 'model = "o3"\n', overrides=ConfigOverrides(oss=True))
    assert (config.model_provider_id, config.model) == ("oss", "gpt-oss:20b")
    assert config.model_provider.wire_api == "chat"
    assert config.model_provider.resolved_base_url() == "http://localhost:11434/v1"
    flagged = load(tmp_path, overrides=ConfigOverrides(oss=True, model="qwen3"))
    assert flagged.model == "qwen3"
    assert load(tmp_path, cli=["model=llama3"], overrides=ConfigOverrides(oss=True)).model == (
        "llama3"
    )


def test_config_oss_provider_in_file_defaults_model(tmp_path: Path) -> None:
    config = load(tmp_path, 'model_provider = "oss"\n')
    assert (config.model_provider_id, config.model) == ("oss", "gpt-oss:20b")


def test_config_user_provider_cannot_replace_built_in(tmp_path: Path) -> None:
    text = '[model_providers.openai]\nname = "evil"\nbase_url = "http://127.0.0.1:1"\n'
    config = load(tmp_path, text)
    assert config.model_provider.name == "OpenAI"
    assert any("model_providers.openai is built in" in w for w in config.warnings)


def test_config_user_provider_defaults_to_chat_wire_api(tmp_path: Path) -> None:
    text = (
        'model_provider = "lm"\n[model_providers.lm]\nname = "LM Studio"\n'
        'base_url = "http://127.0.0.1:1234/v1"\nquery_params = { a = "1" }\n'
        "request_max_retries = 2\nstream_idle_timeout_ms = 1000\n"
    )
    provider = load(tmp_path, text).model_provider
    assert provider.wire_api == "chat"
    assert provider.query_params == {"a": "1"}
    assert provider.effective_request_max_retries == 2
    assert provider.effective_stream_idle_timeout_s == 1.0


def test_config_reads_every_section(tmp_path: Path) -> None:
    text = (
        'notify = ["notify-send", "Codex"]\nhide_agent_reasoning = true\n'
        "model_context_window = 1000\nproject_doc_max_bytes = 0\n"
        "shell_timeout_ms = 2500\n"
        '[history]\npersistence = "none"\nmax_bytes = 10\n'
        '[shell_environment_policy]\ninherit = "core"\nexclude = ["AWS_*"]\n'
        'set = { CI = "1" }\ninclude_only = ["PATH"]\nignore_default_excludes = true\n'
        '[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = ["--stdio"]\nenv = { A = "b" }\n'
        "startup_timeout_sec = 2.5\ntool_timeout_sec = 30.0\n"
    )
    config = load(tmp_path, text)
    assert config.notify == ["notify-send", "Codex"]
    assert config.hide_agent_reasoning
    assert config.model_context_window == 1000
    assert config.project_doc_max_bytes == 0
    assert config.shell_timeout_ms == 2500
    assert config.history == HistoryConfig("none", 10)
    assert config.shell_environment_policy == ShellEnvironmentPolicy(
        inherit="core",
        ignore_default_excludes=True,
        exclude=["AWS_*"],
        set={"CI": "1"},
        include_only=["PATH"],
    )
    assert config.mcp_servers == {
        "docs": McpServerConfig(
            command="docs-mcp",
            args=["--stdio"],
            env={"A": "b"},
            startup_timeout_sec=2.5,
            tool_timeout_sec=30.0,
        )
    }


def test_config_trusted_project_defaults_to_workspace_write(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    text = f'[projects."{repo}"]\ntrust_level = "trusted"\n'
    config = load(tmp_path, text, cwd=repo / "sub")
    assert config.project_trust_level() == "trusted"
    assert isinstance(config.sandbox_policy, WorkspaceWritePolicy)
    assert config.approval_policy == "on-request"
    assert not config.sandbox_mode_explicit
    pinned = load(tmp_path, f'sandbox_mode = "read-only"\n{text}', cwd=repo)
    assert pinned.sandbox_policy == ReadOnlyPolicy() and pinned.sandbox_mode_explicit


def test_config_untrusted_project_is_read_only_and_on_request(tmp_path: Path) -> None:
    text = f'[projects."{tmp_path}"]\ntrust_level = "untrusted"\n'
    config = load(tmp_path, text, cwd=tmp_path)
    assert config.approval_policy == "on-request"
    assert config.sandbox_policy == ReadOnlyPolicy()
    (tmp_path / "other").mkdir()
    assert load(tmp_path / "other", cwd=tmp_path).project_trust_level() is None


def test_config_worktree_inherits_trust_of_main_repository(tmp_path: Path) -> None:
    main = tmp_path / "main"
    (main / ".git" / "worktrees" / "feature").mkdir(parents=True)
    worktree = tmp_path / "elsewhere" / "feature"
    worktree.mkdir(parents=True)
    (worktree / ".git").write_text(f"gitdir: {main / '.git' / 'worktrees' / 'feature'}\n")
    text = f'[projects."{main}"]\ntrust_level = "trusted"\n'
    assert load(tmp_path, text, cwd=worktree).project_trust_level() == "trusted"


def test_config_instructions_file_replaces_base_instructions(tmp_path: Path) -> None:
    (tmp_path / "mine.md").write_text("  Be brief.\n")
    config = load(tmp_path, 'experimental_instructions_file = "mine.md"\n')
    assert config.base_instructions == "Be brief."
    override = ConfigOverrides(base_instructions="From the caller.")
    assert load(tmp_path, overrides=override).base_instructions == "From the caller."


def test_config_model_instructions_file_is_0169s_name_for_it(tmp_path: Path) -> None:
    (tmp_path / "mine.md").write_text("Mine.\n")
    (tmp_path / "old.md").write_text("Old.\n")
    assert load(tmp_path, 'model_instructions_file = "mine.md"\n').base_instructions == "Mine."
    both = 'model_instructions_file = "mine.md"\nexperimental_instructions_file = "old.md"\n'
    assert load(tmp_path, both).base_instructions == "Mine."


def test_config_openai_base_url_moves_the_built_in_provider(tmp_path: Path) -> None:
    config = load_config(
        ConfigOverrides(cwd=tmp_path),
        ['openai_base_url="http://127.0.0.1:9/v1"'],
        codex_home=tmp_path,
        environ={"OPENAI_BASE_URL": "http://env.invalid/v1"},
    )
    assert (config.model_provider_id, config.model_provider.base_url) == (
        "openai",
        "http://127.0.0.1:9/v1",
    )
    assert config.warnings == []


def test_config_relative_cwd_is_resolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "a")
    config = load_config(ConfigOverrides(cwd=Path("b")), codex_home=tmp_path, environ={})
    assert config.cwd == (tmp_path / "a" / "b").resolve()


def test_config_find_codex_home_defaults_to_dot_codex(tmp_path: Path) -> None:
    assert find_codex_home({"HOME": str(tmp_path)}) == tmp_path / ".codex"
    assert find_codex_home({"CODEX_HOME": str(tmp_path)}) == tmp_path.resolve()
