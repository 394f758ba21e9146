"""Turning a validated config.toml plus command-line overrides into a `Config`."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from codex_core.config.errors import ConfigError
from codex_core.config.mcp_servers import mcp_servers_from_toml
from codex_core.config.schema import (
    APPROVAL_POLICIES,
    SANDBOX_MODES,
    ConfigToml,
    GranularToml,
)
from codex_core.config.shell_env import ShellEnvironmentPolicy
from codex_core.config.types import (
    DEFAULT_MODEL,
    DEFAULT_MODEL_PROVIDER,
    DEFAULT_OSS_MODEL,
    DEFAULT_PROJECT_DOC_MAX_BYTES,
    DEFAULT_SHELL_TIMEOUT_MS,
    OSS_PROVIDER_ID,
    Config,
    ConfigOverrides,
    HistoryConfig,
    McpServerConfig,
    ProjectConfig,
    trust_level_for,
)
from codex_core.model_provider import built_in_model_providers
from codex_core.policies import (
    AskForApproval,
    DangerFullAccessPolicy,
    ReadOnlyPolicy,
    SandboxPolicy,
    WorkspaceWritePolicy,
)

log = logging.getLogger(__name__)


class _Layers:
    """Picks a value by precedence: flag > the merged file (`-c` > profile file > config.toml,
    merged by the loader)."""

    def __init__(self, toml: ConfigToml, override_keys: set[tuple[str, ...]]) -> None:
        self.toml = toml
        self.override_keys = override_keys

    def get(self, name: str, flag: Any = None) -> Any:
        if flag is not None:
            return flag
        return getattr(self.toml, name)


def resolve_cwd(cwd: Path | None) -> Path:
    """The session's working directory as an absolute, resolved path."""
    if cwd is None:
        return Path.cwd().resolve()
    return (Path.cwd() / cwd.expanduser()).resolve()


def resolve_config(
    toml: ConfigToml,
    overrides: ConfigOverrides,
    *,
    override_keys: set[tuple[str, ...]],
    codex_home: Path,
    environ: Mapping[str, str],
    warnings: list[str],
) -> Config:
    """Build the Config from validated file data (with `-c` applied) and flag overrides.

    Raises:
        ConfigError: Unknown profile or provider, bad flag values, unreadable instructions file.
    """
    _check_flags(overrides)
    cwd = resolve_cwd(overrides.cwd)
    profile_name = overrides.profile  # the loader has layered its file already
    layers = _Layers(toml, override_keys)
    projects = _projects(toml)
    trust = trust_level_for(projects, cwd)

    providers = built_in_model_providers(dict(environ))
    base_url: str | None = layers.get("openai_base_url")
    if base_url is not None:
        providers["openai"] = providers["openai"].model_copy(update={"base_url": base_url})
    for provider_id, info in toml.model_providers.items():
        if provider_id in providers:
            warnings.append(
                f"model_providers.{provider_id} is built in and cannot be redefined (ignored); "
                "give your provider another id"
            )
        else:
            providers[provider_id] = info
    oss_flag = OSS_PROVIDER_ID if overrides.oss else None
    provider_id = (
        layers.get("model_provider", overrides.model_provider or oss_flag) or DEFAULT_MODEL_PROVIDER
    )
    provider = providers.get(provider_id)
    if provider is None:
        raise ConfigError(
            f'model_provider "{provider_id}" not found; define [model_providers.{provider_id}] '
            f"in config.toml or pass -c 'model_providers.{provider_id}={{name=..., base_url=...}}'"
        )

    model = _model(layers, overrides, provider_id)
    chosen: Any = layers.get("approval_policy", overrides.approval_policy)
    granular = overrides.granular if overrides.approval_policy is not None else None
    if isinstance(chosen, GranularToml):  # config.toml's `{ granular = { ... } }`
        chosen, granular = "granular", chosen.granular
    approval: AskForApproval | None = chosen
    approval_explicit = approval is not None
    mode: str | None = layers.get("sandbox_mode", overrides.sandbox_mode)
    sandbox_explicit = mode is not None
    default_mode, default_approval = default_policies(trust, overrides.tui_policies, mode)
    approval = approval or default_approval
    mode = mode or default_mode

    instructions_file: str | None = layers.get("model_instructions_file") or layers.get(
        "experimental_instructions_file"
    )
    base_instructions = overrides.base_instructions
    if base_instructions is None and instructions_file is not None:
        base_instructions = _read_instructions(instructions_file, cwd)

    policy = toml.shell_environment_policy
    summary: str | None = layers.get("model_reasoning_summary")
    return Config(
        codex_home=codex_home,
        cwd=cwd,
        model=model,
        model_provider_id=provider_id,
        model_provider=provider,
        model_context_window=toml.model_context_window,
        model_auto_compact_token_limit=toml.model_auto_compact_token_limit,
        web_search="live" if overrides.search else (toml.web_search or "cached"),
        update_plan_tool=toml.tools.update_plan.enabled,
        skills=dict(toml.skills),
        hooks=dict(toml.hooks),
        plugins=dict(toml.plugins),
        bypass_hook_trust=overrides.bypass_hook_trust,
        model_reasoning_effort=layers.get("model_reasoning_effort"),
        model_reasoning_summary=summary or "auto",
        model_verbosity=layers.get("model_verbosity"),
        review_model=layers.get("review_model"),
        approval_policy=approval,
        granular=granular if approval == "granular" else None,
        sandbox_policy=_sandbox_policy(mode, toml, cwd),
        sandbox_mode_explicit=sandbox_explicit,
        approval_policy_explicit=approval_explicit,
        approvals_reviewer=layers.get("approvals_reviewer", overrides.approvals_reviewer) or "user",
        shell_environment_policy=ShellEnvironmentPolicy(
            inherit=policy.inherit,
            ignore_default_excludes=policy.ignore_default_excludes,
            exclude=list(policy.exclude),
            set=dict(policy.set),
            include_only=list(policy.include_only),
        ),
        shell_timeout_ms=toml.shell_timeout_ms or DEFAULT_SHELL_TIMEOUT_MS,
        notify=list(toml.notify) if toml.notify else None,
        history=HistoryConfig(toml.history.persistence, toml.history.max_bytes),
        hide_agent_reasoning=toml.hide_agent_reasoning,
        tui_notifications=toml.tui.notifications,
        tui_alternate_screen=toml.tui.alternate_screen,
        features=_features(toml.features, warnings),
        mcp_servers=_with_plugin_servers(codex_home, toml, warnings),
        projects=projects,
        project_doc_max_bytes=(
            DEFAULT_PROJECT_DOC_MAX_BYTES
            if toml.project_doc_max_bytes is None
            else toml.project_doc_max_bytes
        ),
        base_instructions=base_instructions,
        profile=profile_name,
        warnings=warnings,
        model_providers=providers,
    )


def _features(table: dict[str, bool], warnings: list[str]) -> dict[str, bool]:
    """The `[features]` names Codex 0.169 knows; the others, and known ones this codex does not
    honour set away from their default, are named in warnings."""
    from codex_core.features import catalog, ignored_settings

    known = catalog()
    for name in table:
        if name not in known:
            warnings.append(f"unknown config key `features.{name}` (ignored)")
    kept = {name: value for name, value in table.items() if name in known}
    warnings.extend(
        f"feature `{name}` has no effect in this codex (ignored)" for name in ignored_settings(kept)
    )
    return kept


def _check_flags(overrides: ConfigOverrides) -> None:
    if overrides.sandbox_mode is not None and overrides.sandbox_mode not in SANDBOX_MODES:
        raise ConfigError(
            f"--sandbox {overrides.sandbox_mode}: must be one of {', '.join(SANDBOX_MODES)}"
        )
    approval = overrides.approval_policy
    granular = approval == "granular" and overrides.granular is not None  # a client's object
    if approval is not None and approval not in APPROVAL_POLICIES and not granular:
        raise ConfigError(
            f"--ask-for-approval {approval}: must be one of {', '.join(APPROVAL_POLICIES)}"
        )


def _model(layers: _Layers, overrides: ConfigOverrides, provider_id: str) -> str:
    if overrides.model:
        return overrides.model
    if overrides.oss:
        # --oss targets a local server: a model named in config.toml or a profile is meant
        # for the usual provider, so only an explicit `-c model=...` beats the oss default.
        explicit: str | None = layers.toml.model if ("model",) in layers.override_keys else None
        return explicit or DEFAULT_OSS_MODEL
    configured: str | None = layers.get("model")
    if configured:
        return configured
    return DEFAULT_OSS_MODEL if provider_id == OSS_PROVIDER_ID else DEFAULT_MODEL


def default_policies(
    trust: str | None, tui: bool, chosen_mode: str | None = None
) -> tuple[str, AskForApproval]:
    """The sandbox mode and approval policy when neither config nor flags choose them.

    The TUI's follow codex-rust 0.169's TUI (seen side by side in a pty,
    tests/e2e/test_tui_policies_0169.py): a trusted folder runs workspace-write asking
    on request, one recorded untrusted workspace-write under `untrusted` (every command not
    known safe is asked about), one with no decision (outside git, where nobody asks)
    workspace-write under `granular` (leaving the sandbox is refused without asking) — only
    when no sandbox mode is chosen either: with `-s` (or `sandbox_mode`) the approval policy
    defaults to on-request there, as 0.169's.
    Elsewhere (exec, the app-server's clients) distrust shows in a read-only sandbox.
    """
    if not tui:
        return ("workspace-write" if trust == "trusted" else "read-only"), "on-request"
    match trust:
        case "trusted":
            return "workspace-write", "on-request"
        case "untrusted":
            return "workspace-write", "untrusted"
        case _:
            return "workspace-write", "granular" if chosen_mode is None else "on-request"


def _sandbox_policy(mode: str, toml: ConfigToml, cwd: Path) -> SandboxPolicy:
    # Built from values already validated (config.toml's schema), so without the policies'
    # validators: building one on start-up costs more than the rest of this function.
    if mode == "danger-full-access":
        return DangerFullAccessPolicy.model_construct()
    if mode == "read-only":
        return ReadOnlyPolicy.model_construct()
    settings = toml.sandbox_workspace_write
    roots = [str((cwd / Path(root).expanduser()).resolve()) for root in settings.writable_roots]
    return WorkspaceWritePolicy.model_construct(
        writable_roots=roots,
        network_access=settings.network_access,
        exclude_tmpdir_env_var=settings.exclude_tmpdir_env_var,
        exclude_slash_tmp=settings.exclude_slash_tmp,
    )


def _projects(toml: ConfigToml) -> dict[str, ProjectConfig]:
    projects: dict[str, ProjectConfig] = {}
    for key, entry in toml.projects.items():
        path = Path(key).expanduser()
        # Keys are compared with resolved paths, so `~/src/x` and symlinked paths still match.
        name = str(path.resolve()) if path.is_absolute() else key
        projects[name] = ProjectConfig(trust_level=entry.trust_level)
    return projects


def _with_plugin_servers(
    codex_home: Path, toml: ConfigToml, warnings: list[str]
) -> dict[str, McpServerConfig]:
    """The user's MCP servers and those of installed, enabled plugins (the user's win a
    name they share)."""
    own = mcp_servers_from_toml(toml)
    if not toml.plugins:
        return own
    from codex_core.plugins.discovery import installed_plugins, plugin_mcp_servers

    found, _ = installed_plugins(codex_home, toml.plugins)  # one that is gone: silent, as 0.169
    servers, trouble = plugin_mcp_servers(found)
    warnings.extend(trouble)
    return {**servers, **own}


def _read_instructions(name: str, cwd: Path) -> str:
    path = cwd / Path(name).expanduser()
    try:
        text = path.read_text("utf-8").strip()
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        raise ConfigError(
            f"experimental_instructions_file: cannot read {path} ({reason}); "
            "fix the path in config.toml"
        ) from err
    if not text:
        raise ConfigError(
            f"experimental_instructions_file: {path} is empty; "
            "write your instructions into it or remove the key"
        )
    return text
