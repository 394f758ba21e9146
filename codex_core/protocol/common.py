"""Policies and payloads shared by ops and events."""

from typing import Annotated, Literal

from codex_core.lite import Field

# Re-exported: the configuration imports them from `codex_core.policies`.
from codex_core.policies import (
    SANDBOX_POLICY as SANDBOX_POLICY,
)
from codex_core.policies import (
    AskForApproval as AskForApproval,
)
from codex_core.policies import (
    DangerFullAccessPolicy as DangerFullAccessPolicy,
)
from codex_core.policies import (
    ReadOnlyPolicy as ReadOnlyPolicy,
)
from codex_core.policies import (
    ReasoningEffort as ReasoningEffort,
)
from codex_core.policies import (
    ReasoningSummary as ReasoningSummary,
)
from codex_core.policies import (
    ReviewDecision as ReviewDecision,
)
from codex_core.policies import (
    SandboxPolicy as SandboxPolicy,
)
from codex_core.policies import (
    WorkspaceWritePolicy as WorkspaceWritePolicy,
)
from codex_core.policies import (
    _Model as _Model,
)
from codex_core.policies import (
    sandbox_policy_from_mode as sandbox_policy_from_mode,
)

# ---------------------------------------------------------------- shared payloads


class TokenUsage(_Model):
    """Token counts of one response or of a whole session."""

    input_tokens: int = 0
    cached_input_tokens: int = 0
    cache_write_input_tokens: int = 0
    output_tokens: int = 0
    reasoning_output_tokens: int = 0
    total_tokens: int = 0

    def __add__(self, other: "TokenUsage") -> "TokenUsage":
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
