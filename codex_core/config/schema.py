"""The shape of config.toml: pydantic models for every known key, and the unknown-key sweep."""

import types
import typing
from collections.abc import Callable, Iterator
from typing import Any, Literal, TypeVar

from codex_core.config.types import WebSearchMode
from codex_core.lite import ConfigDict, Field, ValidationInfo, field_validator
from codex_core.lite import Model as BaseModel
from codex_core.model_provider import ModelProviderInfo
from codex_core.policies import (
    ChosenApproval,
    GranularApproval,
    ReasoningEffort,
    ReasoningSummary,
    empty_dict,
    empty_list,
)

SandboxMode = Literal["read-only", "workspace-write", "danger-full-access"]
Verbosity = Literal["low", "medium", "high"]
TrustLevel = Literal["trusted", "untrusted"]

SANDBOX_MODES: tuple[str, ...] = typing.get_args(SandboxMode)
APPROVAL_POLICIES: tuple[str, ...] = typing.get_args(ChosenApproval)

# Placeholder for a user-chosen table name (a provider id, profile name, server name, path).
WILDCARD = "<name>"

_T = TypeVar("_T", bound=BaseModel)


def _defaults(table: type[_T]) -> Callable[[], _T]:
    """A default factory making `table` from its defaults.

    Factories are plain functions rather than a model class or `list`, `dict` (see
    `codex_core.policies.empty_list`); `model_construct`: the defaults need no validator.
    """

    def make() -> _T:
        return table.model_construct()

    return make


class _Table(BaseModel):
    # Unknown keys are swept out (with a warning) before validation, so `forbid` only
    # fires for keys that were never looked at, which would be a bug here. Built when first
    # validated: one validator for the whole file (with its tables inline) costs less than
    # one per table built at import.
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)


class SandboxWorkspaceWriteToml(_Table):
    """`[sandbox_workspace_write]`: what `sandbox_mode = "workspace-write"` may touch."""

    writable_roots: list[str] = Field(default_factory=empty_list)
    network_access: bool = False
    exclude_tmpdir_env_var: bool = False
    exclude_slash_tmp: bool = False


class ShellEnvironmentPolicyToml(_Table):
    """`[shell_environment_policy]`: the environment of model-run commands."""

    inherit: Literal["all", "core", "none"] = "all"
    ignore_default_excludes: bool = False
    exclude: list[str] = Field(default_factory=empty_list)
    set: dict[str, str] = Field(default_factory=empty_dict)
    include_only: list[str] = Field(default_factory=empty_list)


class HistoryToml(_Table):
    """`[history]`: what goes into CODEX_HOME/history.jsonl."""

    persistence: Literal["save-all", "none"] = "save-all"
    max_bytes: int | None = Field(default=None, ge=0)


McpApprovalMode = Literal["auto", "prompt", "approve"]


class McpToolToml(_Table):
    """`[mcp_servers.<name>.tools.<tool>]`: settings of one tool of an MCP server."""

    approval_mode: McpApprovalMode | None = None


class McpServerToml(_Table):
    """`[mcp_servers.<name>]`: an MCP server started over stdio (`command`) or reached over
    streamable HTTP (`url`)."""

    # `url` comes first so that the `command` check below can see it.
    url: str | None = None
    command: str | None = Field(default=None, validate_default=True)
    args: list[str] = Field(default_factory=empty_list)
    env: dict[str, str] | None = None
    env_vars: list[str] = Field(default_factory=empty_list)
    cwd: str | None = None
    bearer_token_env_var: str | None = None
    http_headers: dict[str, str] | None = None
    env_http_headers: dict[str, str] | None = None
    enabled: bool = True
    required: bool = False
    startup_timeout_ms: int | None = Field(default=None, gt=0)
    startup_timeout_sec: float | None = Field(default=None, gt=0)
    tool_timeout_sec: float | None = Field(default=None, gt=0)
    enabled_tools: list[str] | None = None
    disabled_tools: list[str] | None = None
    default_tools_approval_mode: McpApprovalMode | None = None
    tools: dict[str, McpToolToml] = Field(default_factory=empty_dict)

    @field_validator("command")
    @classmethod
    def _command_or_url(cls, command: str | None, info: ValidationInfo) -> str | None:
        url = info.data.get("url")
        if command is None and url is None:
            from pydantic_core import PydanticCustomError

            raise PydanticCustomError("missing", "Field required")
        if command is not None and url is not None:
            from pydantic_core import PydanticCustomError

            raise PydanticCustomError(
                "command_and_url", "not allowed together with url; keep one of them"
            )
        return command


class ProjectToml(_Table):
    """`[projects."<abs path>"]`: per-project settings."""

    trust_level: TrustLevel | None = None


class TuiToml(_Table):
    """`[tui]`: settings of the terminal UI."""

    notifications: bool | list[str] = False
    """Terminal notifications (OSC 9): true, false, or the kinds to send
    (`agent-turn-complete`, `approval-requested`)."""
    alternate_screen: Literal["auto", "always", "never"] = "auto"
    """`never` runs the TUI inline, so the conversation stays in the scrollback
    (`--no-alt-screen` for one run)."""


class UpdatePlanToolToml(_Table):
    """`[tools.update_plan]`: the model's checklist tool."""

    enabled: bool = False
    """Offer `update_plan` to the model (Codex 0.169 offers it to no model otherwise)."""


class ToolsToml(_Table):
    """`[tools]`: settings of model-facing tools."""

    update_plan: UpdatePlanToolToml = Field(default_factory=_defaults(UpdatePlanToolToml))


class GranularToml(_Table):
    """`approval_policy = { granular = { sandbox_approval = …, rules = …, mcp_elicitations = … } }`:
    Codex 0.169's form (the three are required; `skill_approval` and `request_permissions`
    default to false; other keys inside are ignored, as 0.169 ignores them)."""

    granular: GranularApproval


class ConfigToml(_Table):
    """The whole of config.toml; every field is optional."""

    model: str | None = None
    model_provider: str | None = None
    openai_base_url: str | None = None
    """Base URL of the built-in `openai` provider (what the TypeScript SDK's `baseUrl` sets)."""
    model_providers: dict[str, ModelProviderInfo] = Field(default_factory=empty_dict)
    model_context_window: int | None = Field(default=None, gt=0)
    model_auto_compact_token_limit: int | None = Field(default=None, gt=0)
    approval_policy: ChosenApproval | GranularToml | None = None
    approvals_reviewer: Literal["user", "auto_review", "guardian_subagent"] | None = None
    """Who answers approval requests: the user, or the automatic reviewer (`auto_review`;
    0.169 still accepts `guardian_subagent`). See `codex_core.auto_review`."""
    sandbox_mode: SandboxMode | None = None
    sandbox_workspace_write: SandboxWorkspaceWriteToml = Field(
        default_factory=_defaults(SandboxWorkspaceWriteToml)
    )
    shell_environment_policy: ShellEnvironmentPolicyToml = Field(
        default_factory=_defaults(ShellEnvironmentPolicyToml)
    )
    shell_timeout_ms: int | None = Field(default=None, gt=0)
    notify: list[str] | None = None
    history: HistoryToml = Field(default_factory=_defaults(HistoryToml))
    hide_agent_reasoning: bool = False
    model_reasoning_effort: ReasoningEffort | None = None
    model_reasoning_summary: ReasoningSummary | None = None
    model_verbosity: Verbosity | None = None
    review_model: str | None = None
    """The model of code reviews (`codex review`, `/review`); unset: the session's model."""
    mcp_servers: dict[str, McpServerToml] = Field(default_factory=empty_dict)
    projects: dict[str, ProjectToml] = Field(default_factory=empty_dict)
    tui: TuiToml = Field(default_factory=_defaults(TuiToml))
    experimental_instructions_file: str | None = None
    model_instructions_file: str | None = None
    """Codex 0.169's name for `experimental_instructions_file` (the two are one setting)."""
    project_doc_max_bytes: int | None = Field(default=None, ge=0)
    web_search: WebSearchMode | None = None
    tools: ToolsToml = Field(default_factory=_defaults(ToolsToml))
    skills: dict[str, Any] = Field(default_factory=empty_dict)
    features: dict[str, bool] = Field(default_factory=empty_dict)
    """`[features]`: Codex 0.169's feature flags by name (see `codex_core.features`)."""
    hooks: dict[str, Any] = Field(default_factory=empty_dict)
    """`[hooks]`: inline hook groups per event and `[hooks.state."<key>"]` trust records."""
    plugins: dict[str, Any] = Field(default_factory=empty_dict)
    """`[plugins."<name>@<marketplace>"] enabled`: installed plugins (see `codex_core.plugins`)."""
    marketplaces: dict[str, Any] = Field(default_factory=empty_dict)
    """`[marketplaces.<name>]`: plugin marketplace sources (`source_type`, `source`, `ref`)."""
    """`[skills]`: `bundled.enabled`, `[[skills.config]]` entries (read by `codex_core.skills`)."""


def _table_kind(annotation: Any) -> tuple[str, type[BaseModel]] | None:
    """("table", M) for a sub-table field, ("map", M) for `dict[str, M]`, else None."""
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _table_kind(inner[0]) if len(inner) == 1 else None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return ("table", annotation)
    if origin is dict and len(args) == 2:
        value = args[1]
        if isinstance(value, type) and issubclass(value, BaseModel):
            return ("map", value)
    return None


def sweep_unknown_keys(
    data: dict[str, Any], model: type[BaseModel] = ConfigToml, prefix: tuple[str, ...] = ()
) -> tuple[dict[str, Any], list[tuple[str, ...]]]:
    """Split `data` into the keys `model` knows and the paths of those it does not.

    Args:
        data: One parsed TOML table.
        model: The schema of that table.
        prefix: The table's path, for the reported key paths.

    Returns:
        A copy of `data` without unknown keys, and the unknown keys' full paths.
    """
    known: dict[str, Any] = {}
    unknown: list[tuple[str, ...]] = []
    for key, value in data.items():
        info = model.model_fields.get(key)
        if info is None:
            unknown.append((*prefix, key))
            continue
        kind = _table_kind(info.annotation)
        if kind is None or not isinstance(value, dict):
            known[key] = value
        elif kind[0] == "table":
            known[key], missing = sweep_unknown_keys(value, kind[1], (*prefix, key))
            unknown.extend(missing)
        else:
            entries: dict[str, Any] = {}
            for name, entry in value.items():
                if isinstance(entry, dict):
                    entries[name], missing = sweep_unknown_keys(
                        entry, kind[1], (*prefix, key, name)
                    )
                    unknown.extend(missing)
                else:
                    entries[name] = entry
            known[key] = entries
    return known, unknown


def known_key_patterns(
    model: type[BaseModel] = ConfigToml, prefix: tuple[str, ...] = ()
) -> Iterator[tuple[str, ...]]:
    """Every leaf key the schema knows, with `<name>` standing for user-chosen table names."""
    for key, info in model.model_fields.items():
        kind = _table_kind(info.annotation)
        if kind is None:
            yield (*prefix, key)
        elif kind[0] == "table":
            yield from known_key_patterns(kind[1], (*prefix, key))
        else:
            yield from known_key_patterns(kind[1], (*prefix, key, WILDCARD))
