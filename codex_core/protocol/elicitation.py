"""An MCP server asking the user for input (`elicitation/create`), and the user's answer.

The session emits `elicitation_request` while the server waits; a frontend answers with a
`resolve_elicitation` op: `accept` (with the form's `content`), `decline` or `cancel`.
`codex exec` declines at once, as the Codex CLI 0.169 does; the app-server forwards it as
the `mcpServer/elicitation/request` server request; the TUI shows a form.
"""

from typing import Any, Literal

from codex_core.protocol.common import _Model

ElicitationAction = Literal["accept", "decline", "cancel"]


class ElicitationRequestEvent(_Model):
    """A server waits for the user: a form (`requested_schema`) or a URL to open."""

    type: Literal["elicitation_request"] = "elicitation_request"
    server_name: str
    id: str
    """Names this request in the `resolve_elicitation` answer (unique per session)."""
    message: str
    mode: Literal["form", "url"] = "form"
    requested_schema: dict[str, Any] | None = None
    """Form mode: a flat object schema of strings, numbers, booleans and enums."""
    url: str | None = None
    elicitation_id: str | None = None
    turn_id: str | None = None
    """The submission id of the turn whose tool call led to it, when there is one."""


class ResolveElicitationOp(_Model):
    """The user's answer to an `elicitation_request`."""

    type: Literal["resolve_elicitation"] = "resolve_elicitation"
    server_name: str
    request_id: str
    decision: ElicitationAction
    content: dict[str, Any] | None = None
    """The form's values, with `accept` only."""
