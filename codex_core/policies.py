"""Approval, sandbox and reasoning settings: the protocol types the configuration needs.

They live outside `codex_core.protocol` (which re-exports them from `protocol.common`) so that
loading and validating config.toml does not import the whole protocol (issue 29): importing
any module of that package runs its `__init__`, every event and op model included.
"""

from typing import Annotated, Any, Literal, get_args

from codex_core.lite import ConfigDict, Field, Model, TypeAdapter

ChosenApproval = Literal["untrusted", "on-failure", "on-request", "never"]
"""What config.toml's `approval_policy`, a profile and `-a` may say (0.169's choices)."""
CHOSEN_APPROVALS: tuple[str, ...] = get_args(ChosenApproval)
AskForApproval = Literal[ChosenApproval, "granular"]
"""`granular` asks as `on-request` does, except for the kinds of request its settings
(`GranularApproval`, carried beside the name) turn off: those are rejected without asking.
config.toml says it as `approval_policy = { granular = { sandbox_approval = …, rules = …,
mcp_elicitations = … } }`, the app-server wire as `{"granular": {...}}`, as Codex 0.169 does.
Codex 0.169's TUI gives a folder outside git with no trust decision `granular` with
`DEFAULT_GRANULAR` (seen in its `/status`, "Workspace (granular)"). Not a `-a` choice."""


ReviewDecision = Literal["approved", "approved_for_session", "denied", "abort"]
ReasoningEffort = Annotated[str, Field(min_length=1)]
"""Any non-empty word, as Codex 0.169 takes it (`none` … `xhigh`, `max`, or what a newer model
advertises); sent as `reasoning.effort` (see `codex_core.model_family.wire_effort`)."""
ReasoningSummary = Literal["auto", "concise", "detailed", "none"]


def empty_list() -> list[Any]:
    """A `default_factory` for an empty list.

    pydantic reads a factory's signature each time it builds a schema or `model_construct`
    fills a default: for `list` or `dict` that is ~0.3 ms (parsed from the builtin's text
    signature; the first one also compiles the tokenizer's regexes, ~5 ms), for a function a
    few µs.
    """
    return []


def empty_dict() -> dict[str, Any]:
    """A `default_factory` for an empty dict (see `empty_list`)."""
    return {}


class _Model(Model):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    def to_wire(self) -> dict[str, Any]:
        """JSON-ready dict, unset optionals dropped."""
        return self.model_dump(mode="json", exclude_none=True)


class GranularApproval(Model):
    """Which kinds of approval request `granular` still asks about (True) and which it rejects
    without asking (False) — 0.169's GranularApprovalConfig: leaving the sandbox or writing
    outside it (`sandbox_approval`), a `.rules` prompt (`rules`), a skill's approval
    (`skill_approval`), a request for more permissions (`request_permissions`) and an MCP
    server's question (`mcp_elicitations`). The first, second and last are required, as in
    0.169; unknown keys are ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=True, strict=True)

    sandbox_approval: bool
    rules: bool
    skill_approval: bool = False
    request_permissions: bool = False
    mcp_elicitations: bool


GRANULAR_SETTINGS = (
    "sandbox_approval",
    "rules",
    "skill_approval",
    "request_permissions",
    "mcp_elicitations",
)
"""`GranularApproval`'s fields in 0.169's order."""
DEFAULT_GRANULAR = GranularApproval.model_construct(  # no validator built at import
    sandbox_approval=False,
    rules=False,
    skill_approval=False,
    request_permissions=True,
    mcp_elicitations=True,
)
"""What 0.169's TUI uses for a folder with no trust decision (tests/fixtures/tui_policies_0169.json)."""


def granular_asks(
    policy: str, granular: GranularApproval | None, kind: str = "sandbox_approval"
) -> bool:
    """Whether a request of `kind` (a `GranularApproval` field) may be put to the user under
    `policy`: never under `never`, under `granular` when its setting says so, else yes."""
    if policy == "never":
        return False
    if policy != "granular":
        return True
    return bool(getattr(granular or DEFAULT_GRANULAR, kind))


def approval_wire(policy: str, granular: GranularApproval | None = None) -> Any:
    """`policy` as 0.169 writes it on the app-server wire and in rollouts' `turn_context`:
    `granular` as its object (`granular`'s settings, `DEFAULT_GRANULAR` without), the others as
    their names."""
    if policy != "granular":
        return policy
    settings = granular or DEFAULT_GRANULAR
    return {"granular": {name: getattr(settings, name) for name in GRANULAR_SETTINGS}}


GRANULAR_WIRE: dict[str, Any] = approval_wire("granular")
"""0.169's wire form of the TUI's default `granular` (the schema's GranularAskForApproval)."""


class ReadOnlyPolicy(_Model):
    """Commands may read anything and write nothing (but /dev/null)."""

    mode: Literal["read-only"] = "read-only"


class WorkspaceWritePolicy(_Model):
    """Commands may write under cwd, `writable_roots`, /tmp and $TMPDIR (unless excluded)."""

    mode: Literal["workspace-write"] = "workspace-write"
    writable_roots: list[str] = Field(default_factory=empty_list)
    network_access: bool = False
    exclude_tmpdir_env_var: bool = False
    exclude_slash_tmp: bool = False


class DangerFullAccessPolicy(_Model):
    """No sandbox at all."""

    mode: Literal["danger-full-access"] = "danger-full-access"


SandboxPolicy = Annotated[
    ReadOnlyPolicy | WorkspaceWritePolicy | DangerFullAccessPolicy, Field(discriminator="mode")
]
SANDBOX_POLICY: TypeAdapter[SandboxPolicy] = TypeAdapter(
    SandboxPolicy, config=ConfigDict(defer_build=True)
)
"""Its validator is built on first use: start-up picks a policy without the union's."""
_POLICY_OF_MODE: dict[str, type[ReadOnlyPolicy | WorkspaceWritePolicy | DangerFullAccessPolicy]] = {
    "read-only": ReadOnlyPolicy,
    "workspace-write": WorkspaceWritePolicy,
    "danger-full-access": DangerFullAccessPolicy,
}


def sandbox_policy_from_mode(mode: str) -> SandboxPolicy:
    """The default policy for a `sandbox_mode` name (an unknown one fails validation)."""
    policy = _POLICY_OF_MODE.get(mode)
    if policy is None:
        return SANDBOX_POLICY.validate_python({"mode": mode})
    return policy.model_construct(mode=mode)  # as validated: `mode` set, the rest defaults


def sandbox_wire(policy: SandboxPolicy) -> dict[str, Any]:
    """`policy` as 0.169 writes it in rollouts' `turn_context`: tagged by `type`, fields in
    0.169's order, `writable_roots` left out when there are none."""
    wire: dict[str, Any] = {"type": policy.mode}
    if isinstance(policy, WorkspaceWritePolicy):
        if policy.writable_roots:
            wire["writable_roots"] = list(policy.writable_roots)
        wire["network_access"] = policy.network_access
        wire["exclude_tmpdir_env_var"] = policy.exclude_tmpdir_env_var
        wire["exclude_slash_tmp"] = policy.exclude_slash_tmp
    return wire


def sandbox_policy_from_wire(value: Any) -> SandboxPolicy | None:
    """A recorded `sandbox_policy`: 0.169's `type` form or our older `mode` form (rollouts
    written before 0.169's was adopted); None for anything else."""
    if not isinstance(value, dict):
        return None
    mode = value.get("type", value.get("mode"))
    if not isinstance(mode, str) or mode not in _POLICY_OF_MODE:
        return None
    fields = {k: v for k, v in value.items() if k not in ("type", "mode")}
    try:
        return SANDBOX_POLICY.validate_python({**fields, "mode": mode})
    except ValueError:
        return None
