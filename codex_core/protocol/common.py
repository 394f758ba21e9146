"""Policies and payloads shared by ops and events."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

AskForApproval = Literal["untrusted", "on-failure", "on-request", "never"]
ReviewDecision = Literal["approved", "approved_for_session", "denied", "abort"]
ReasoningEffort = Annotated[str, Field(min_length=1)]
"""Any non-empty word, as Codex 0.169 takes it (`none` … `xhigh`, `max`, or what a newer model
advertises); sent as `reasoning.effort` (see `codex_core.model_family.wire_effort`)."""
ReasoningSummary = Literal["auto", "concise", "detailed", "none"]


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
    writable_roots: list[str] = Field(default_factory=list)
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


# ---------------------------------------------------------------- shared payloads


class TokenUsage(_Model):
    """Token counts of one response or of a whole session."""

    input_tokens: int = 0
    cached_input_tokens: int = 0
    cache_write_input_tokens: int = 0
    output_tokens: int = 0
    reasoning_output_tokens: int = 0
    total_tokens: int = 0

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            input_tokens=self.input_tokens + other.input_tokens,
            cached_input_tokens=self.cached_input_tokens + other.cached_input_tokens,
            cache_write_input_tokens=self.cache_write_input_tokens + other.cache_write_input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            reasoning_output_tokens=self.reasoning_output_tokens + other.reasoning_output_tokens,
            total_tokens=self.total_tokens + other.total_tokens,
        )


class TokenUsageInfo(_Model):
    """Running totals plus the last response's usage and the model's context window."""

    total_token_usage: TokenUsage = Field(default_factory=TokenUsage)
    last_token_usage: TokenUsage = Field(default_factory=TokenUsage)
    model_context_window: int | None = None


class AddChange(_Model):
    """A file the patch creates."""

    type: Literal["add"] = "add"
    content: str


class DeleteChange(_Model):
    """A file the patch deletes."""

    type: Literal["delete"] = "delete"
    content: str


class UpdateChange(_Model):
    """A file the patch edits (and maybe moves)."""

    type: Literal["update"] = "update"
    unified_diff: str
    move_path: str | None = None


FileChange = Annotated[AddChange | DeleteChange | UpdateChange, Field(discriminator="type")]


class PlanItem(_Model):
    """One step of the model's plan."""

    step: str
    status: Literal["pending", "in_progress", "completed"]


class TextInput(_Model):
    """User text."""

    type: Literal["text"] = "text"
    text: str


class ImageInput(_Model):
    """An image as a URL or `data:` URL."""

    type: Literal["image"] = "image"
    image_url: str


class LocalImageInput(_Model):
    """An image file on disk, read and encoded by the core."""

    type: Literal["local_image"] = "local_image"
    path: str


InputItem = Annotated[TextInput | ImageInput | LocalImageInput, Field(discriminator="type")]
