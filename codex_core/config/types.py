"""The resolved configuration (`Config`) and the typed command-line overrides that feed it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from codex_core.config.flags import (
    ConfigOverrides as ConfigOverrides,  # moved; still importable here
)
from codex_core.config.shell_env import ShellEnvironmentPolicy
from codex_core.model_provider import ModelProviderInfo, built_in_model_providers
from codex_core.policies import AskForApproval, GranularApproval, ReadOnlyPolicy, SandboxPolicy

WebSearchMode = Literal["disabled", "cached", "indexed", "live"]
"""`web_search`: the hosted web search tool off, on cached/indexed results, or live."""

DEFAULT_MODEL = "gpt-5-codex"
DEFAULT_OSS_MODEL = "gpt-oss:20b"
DEFAULT_MODEL_PROVIDER = "openai"
OSS_PROVIDER_ID = "oss"
DEFAULT_PROJECT_DOC_MAX_BYTES = 32 * 1024
DEFAULT_SHELL_TIMEOUT_MS = 10_000


@dataclass
class HistoryConfig:
    """`[history]`: whether messages are saved to history.jsonl and how big it may grow."""

    persistence: Literal["save-all", "none"] = "save-all"
    max_bytes: int | None = None


@dataclass
class McpServerConfig:
    """One `[mcp_servers.<name>]` entry: a stdio server (`command`) or a streamable HTTP one
    (`url`). Unset timeouts stay None here; `codex_core.mcp` applies the defaults."""

    command: str | None = None
    args: list[str] = field(default_factory=list)
    env: dict[str, str] | None = None
    env_vars: list[str] = field(default_factory=list)
    cwd: str | None = None
    url: str | None = None
    bearer_token_env_var: str | None = None
    http_headers: dict[str, str] | None = None
    env_http_headers: dict[str, str] | None = None
    enabled: bool = True
    required: bool = False
    startup_timeout_sec: float | None = None
    tool_timeout_sec: float | None = None
    enabled_tools: list[str] | None = None
    disabled_tools: list[str] | None = None
    default_tools_approval_mode: Literal["auto", "prompt", "approve"] | None = None
    tool_approval_modes: dict[str, Literal["auto", "prompt", "approve"]] = field(
        default_factory=dict
    )


@dataclass
class ProjectConfig:
    """One `[projects."<abs path>"]` entry."""

    trust_level: Literal["trusted", "untrusted"] | None = None


def _openai_provider() -> ModelProviderInfo:
    return built_in_model_providers({})[DEFAULT_MODEL_PROVIDER]


@dataclass
class Config:
    """Everything a session needs, resolved from flags, `-c`, profile, file and defaults."""

    codex_home: Path
    cwd: Path
    model: str = DEFAULT_MODEL
    model_provider_id: str = DEFAULT_MODEL_PROVIDER
    model_provider: ModelProviderInfo = field(default_factory=_openai_provider)
    model_context_window: int | None = None
    model_auto_compact_token_limit: int | None = None
    model_reasoning_effort: str | None = None
    model_reasoning_summary: str = "auto"
    model_verbosity: str | None = None
    review_model: str | None = None
    """`review_model`: the model code reviews use (unset: the session's)."""
    approval_policy: AskForApproval = "on-request"
    granular: GranularApproval | None = None
    """`granular`'s settings when config.toml or a client chose them (None: DEFAULT_GRANULAR)."""
    sandbox_policy: SandboxPolicy = field(default_factory=ReadOnlyPolicy)
    sandbox_mode_explicit: bool = False
    approval_policy_explicit: bool = False
    approvals_reviewer: str = "user"
    """`user`, or `auto_review` / `guardian_subagent`: a reviewer model call answers
    approval requests instead (`--approve-for-me`, `codex_core.auto_review`)."""
    shell_environment_policy: ShellEnvironmentPolicy = field(default_factory=ShellEnvironmentPolicy)
    shell_timeout_ms: int = DEFAULT_SHELL_TIMEOUT_MS
    notify: list[str] | None = None
    history: HistoryConfig = field(default_factory=HistoryConfig)
    hide_agent_reasoning: bool = False
    tui_notifications: bool | list[str] = False
    tui_alternate_screen: str = "auto"
    """`tui.alternate_screen`: `never` runs the TUI inline (`--no-alt-screen`)."""
    features: dict[str, bool] = field(default_factory=dict)
    """`[features]` as set (known 0.169 names only); `codex_core.features` reads it."""
    """`tui.notifications`: true, false, or the notification kinds the TUI sends."""
    mcp_servers: dict[str, McpServerConfig] = field(default_factory=dict)
    projects: dict[str, ProjectConfig] = field(default_factory=dict)
    project_doc_max_bytes: int = DEFAULT_PROJECT_DOC_MAX_BYTES
    web_search: WebSearchMode = "cached"
    update_plan_tool: bool = False
    """`[tools.update_plan] enabled`: offer `update_plan` to the model."""
    skills: dict[str, Any] = field(default_factory=dict)
    hooks: dict[str, Any] = field(default_factory=dict)
    """The `[hooks]` table: inline hooks and their trust (see `codex_core.hooks`)."""
    bypass_hook_trust: bool = False
    """`--dangerously-bypass-hook-trust` was given."""
    """The `[skills]` table: which skills are turned off (see `codex_core.skills`)."""
    plugins: dict[str, Any] = field(default_factory=dict)
    """The `[plugins]` table: installed plugins, enabled or not (see `codex_core.plugins`)."""
    base_instructions: str | None = None
    profile: str | None = None
    ephemeral: bool = False
    """`codex exec --ephemeral`: the session writes no rollout file."""
    thread_source: str = "user"
    """`codex exec --thread-source`: the `thread_source` a new session records (the SDKs' own
    classification, as Codex 0.169 keeps it in `session_meta` and `state_5`)."""
    warnings: list[str] = field(default_factory=list)
    model_providers: dict[str, ModelProviderInfo] = field(default_factory=dict)

    def project_trust_level(self, path: Path | None = None) -> str | None:
        """The trust level recorded for `path` (default: cwd) or its nearest listed ancestor.

        A git worktree also inherits the trust of its main repository.
        """
        return trust_level_for(self.projects, path or self.cwd)


def trust_level_for(projects: dict[str, ProjectConfig], path: Path) -> str | None:
    """The `trust_level` of the nearest entry of `projects` at or above `path`."""
    for candidate in _trust_candidates(path):
        entry = projects.get(str(candidate))
        if entry is not None and entry.trust_level is not None:
            return entry.trust_level
    return None


def _trust_candidates(path: Path) -> Iterator[Path]:
    start = path.expanduser().absolute()
    chain = [start, *start.parents]
    yield from chain
    main = _main_worktree_root(chain)
    if main is not None and main not in chain:
        yield from (main, *main.parents)


def _main_worktree_root(chain: list[Path]) -> Path | None:
    """For a linked git worktree, the working directory of its main repository."""
    for directory in chain:
        dot_git = directory / ".git"
        if dot_git.is_dir():
            return None
        if dot_git.is_file():
            try:
                text = dot_git.read_text("utf-8", errors="replace").strip()
            except OSError:
                return None
            if not text.startswith("gitdir:"):
                return None
            gitdir = Path(text.removeprefix("gitdir:").strip())
            if not gitdir.is_absolute():
                gitdir = directory / gitdir
            # <main>/.git/worktrees/<name>: the main working tree holds that .git folder.
            if gitdir.parent.name == "worktrees" and gitdir.parent.parent.name == ".git":
                return gitdir.parent.parent.parent
            return None
    return None
