"""The Codex protocol: policies, Responses API items, ops and events.

Frontends `submit(Op)` and read `Event{id, msg}`; both unions are discriminated on a
snake_case `type` whose names follow the Codex CLI protocol.
"""

from codex_core.protocol.common import (
    SANDBOX_POLICY,
    AddChange,
    AskForApproval,
    DangerFullAccessPolicy,
    DeleteChange,
    FileChange,
    ImageInput,
    InputItem,
    LocalImageInput,
    PlanItem,
    ReadOnlyPolicy,
    ReasoningEffort,
    ReasoningSummary,
    ReviewDecision,
    SandboxPolicy,
    TextInput,
    TokenUsage,
    TokenUsageInfo,
    UpdateChange,
    WorkspaceWritePolicy,
    sandbox_policy_from_mode,
)
from codex_core.protocol.events import *  # noqa: F403
from codex_core.protocol.events import EVENT_MSG, Event, EventMsg, parse_event_msg
from codex_core.protocol.items import (
    ContentItem,
    CustomToolCall,
    CustomToolCallOutput,
    FunctionCall,
    FunctionCallOutput,
    InputImage,
    InputText,
    LocalShellAction,
    LocalShellCall,
    Message,
    OutputText,
    Reasoning,
    ResponseItem,
    SummaryText,
    assistant_message,
    parse_response_item,
    user_message,
)
from codex_core.protocol.ops import *  # noqa: F403
from codex_core.protocol.ops import OP, Op, Submission
