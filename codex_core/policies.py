"""Approval, sandbox and reasoning settings: the protocol types the configuration needs.

They live outside `codex_core.protocol` (which re-exports them from `protocol.common`) so that
loading and validating config.toml does not import the whole protocol (issue 29): importing
any module of that package runs its `__init__`, every event and op model included.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

ChosenApproval = Literal["untrusted", "on-failure", "on-request", "never"]
"""What config.toml's `approval_policy`, a profile and `-a` may say (0.169's choices)."""
AskForApproval = Literal[ChosenApproval, "granular"]
"""`granular` is the policy Codex 0.169's TUI gives a folder outside git with no trust decision
(seen in its `/status`, "Workspace (granular)", and its permissions instructions): leaving the
sandbox (`sandbox_approval`), `.rules` prompts (`rules`) and skill approvals are rejected
without asking; MCP elicitations still ask. On the app-server wire it is
`{"granular": {...}}` (GRANULAR_WIRE). Not a `-a` choice, as in 0.169."""
GRANULAR_WIRE: dict[str, Any] = {
    "granular": {
        "sandbox_approval": False,
        "rules": False,
        "skill_approval": False,
        "request_permissions": True,
        "mcp_elicitations": True,
    }
}
"""0.169's wire form of `granular` (the schema's GranularAskForApproval)."""


def approval_wire(policy: str) -> Any:
    """`policy` as 0.169 writes it on the app-server wire and in rollouts' `turn_context`:
    `granular` as its object, the others as their names."""
    return GRANULAR_WIRE if policy == "granular" else policy


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


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", defer_build=True)

    def to_wire(self) -> dict[str, Any]:
        """JSON-ready dict, unset optionals dropped."""
        return self.model_dump(mode="json", exclude_none=True)


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
