"""The update_plan tool: the model's checklist, forwarded to frontends as `plan_update`."""

from __future__ import annotations

from codex_core import lite
from codex_core.protocol import PlanUpdateEvent
from codex_core.tools.args import ToolArgumentError, parse_object
from codex_core.tools.context import ToolContext


def run_update_plan(ctx: ToolContext, arguments: str) -> str:
    """Validate the plan, emit it, and acknowledge to the model."""
    try:
        data = parse_object(arguments)
        event = PlanUpdateEvent.model_validate({**data, "type": "plan_update"})
    except (ToolArgumentError, lite.ValidationError, TypeError) as err:
        first = str(err).splitlines()[0]
        return f"failed to parse update_plan arguments: {first}"
    ctx.emit(event)
    return "Plan updated"
