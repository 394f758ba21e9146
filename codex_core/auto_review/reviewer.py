"""The reviewer model call, and where it stands in for the user's answer.

`install_auto_review` replaces a turn's two approval requesters (commands, patches): the
question the user would have seen goes to one model request — the policy as instructions,
the transcript and the planned action as the only input, no tools, the answer's JSON
schema — and its outcome is the decision. `allow` is a one-time approval (never "for the
session", nothing remembered, no rule saved), so what runs, and where, is exactly what the
same yes from the user would have run under the same policy. Anything else denies: a
`deny`, an answer that is not the JSON asked for (asked again up to `MAX_ATTEMPTS` times,
as 0.169 does), a failed request, no answer within `REVIEW_TIMEOUT_S`. A denied command
or patch answers the model with the reason (`denial_text`), and the decision is an
`approval_decision` event marked `auto_review` that frontends show.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codex_core.auto_review.assessment import (
    ASSESSMENT_SCHEMA,
    Assessment,
    denial_text,
    parse_assessment,
)
from codex_core.auto_review.context import planned_action, review_request_text
from codex_core.client import ModelClientError, OutputItemDone, Prompt
from codex_core.protocol import (
    ApprovalDecisionEvent,
    EventMsg,
    FileChange,
    Message,
    ResponseItem,
    ReviewDecision,
    assistant_message,
    user_message,
)
from codex_core.tools.errors import RespondToModel
from codex_core.tools.shell import DENIAL_QUESTION

if TYPE_CHECKING:
    from codex_core.session.host import TurnHost
    from codex_core.tools.context import ToolContext
    from codex_core.turn_context import TurnContext

log = logging.getLogger(__name__)

AUTO_REVIEWERS = frozenset({"auto_review", "guardian_subagent"})
"""`approvals_reviewer` values that send approvals to the reviewer (0.169 spells both)."""
REVIEW_TIMEOUT_S = 90.0
"""The whole review, every attempt included; past it the action is denied."""
MAX_ATTEMPTS = 3
ASK_AGAIN = (
    "That answer was not the JSON object asked for. Answer again with only the JSON object "
    "(risk_level, user_authorization, outcome, rationale)."
)


def review_policy() -> str:
    """The reviewer's instructions."""
    path = resources.files("codex_core") / "prompts" / "auto_review_policy.md"
    return path.read_text("utf-8")


class AutoReviewer:
    """Answers one turn's approval requests with a model call each."""

    def __init__(
        self,
        session: TurnHost,
        turn: TurnContext,
        emit: Callable[[EventMsg], None],
        timeout_s: float = REVIEW_TIMEOUT_S,
    ) -> None:
        self.session = session
        self.turn = turn
        self.emit = emit
        self.timeout_s = timeout_s

    async def assess(self, action: dict[str, Any]) -> Assessment:
        """The reviewer's decision on `action`; a failure of any kind is a deny."""
        s = self.session
        text = review_request_text(s.history, action, s.session_id)
        items: list[ResponseItem] = [user_message(text)]
        client = s.client_factory(s.config, s.session_id, self.turn.with_changes(effort="low"))
        client.extra_headers["x-openai-subagent"] = "guardian"  # 0.169's name for this call
        assessment = Assessment.failed("the reviewer gave no answer")
        try:
            async with asyncio.timeout(self.timeout_s):
                for _attempt in range(MAX_ATTEMPTS):
                    answer = await self._ask(client, items)
                    assessment = parse_assessment(answer)
                    if assessment.failure is None:
                        return assessment
                    items += [assistant_message(answer), user_message(ASK_AGAIN)]
        except TimeoutError:
            return Assessment.failed(f"the reviewer did not answer within {self.timeout_s:g} s")
        except ModelClientError as err:
            return Assessment.failed(f"the reviewer's request failed: {err}")
        except Exception as err:  # a bug in the review must deny, never approve
            log.exception("automatic approval review failed")
            return Assessment.failed(f"internal error: {err}")
        finally:
            await client.aclose()
        return assessment

    async def _ask(self, client: Any, items: list[ResponseItem]) -> str:
        prompt = Prompt(
            instructions=review_policy(),
            input=list(items),
            tools=[],
            output_schema=ASSESSMENT_SCHEMA,
        )
        text = ""
        async for event in client.stream(prompt):
            if isinstance(event, OutputItemDone):
                item = event.item
                if isinstance(item, Message) and item.role == "assistant":
                    text = item.text()
        return text

    def _decided(
        self,
        call_id: str,
        kind: str,
        assessment: Assessment,
        command: list[str] | None,
        cwd: Path | None,
    ) -> ReviewDecision:
        decision: ReviewDecision = "approved" if assessment.outcome == "allow" else "denied"
        self.emit(
            ApprovalDecisionEvent(
                call_id=call_id,
                kind="exec" if kind == "exec" else "patch",
                decision=decision,
                command=command,
                reviewer="auto_review",
                rationale=assessment.failure or assessment.rationale or None,
                cwd=str(cwd) if cwd is not None else None,
            )
        )
        return decision

    async def review_exec(
        self,
        call_id: str,
        command: list[str],
        cwd: Path,
        reason: str | None,
        _prefix: list[str] | None,
    ) -> ReviewDecision:
        """Stand in for the user on a command (or an MCP tool call, or a terminal write)."""
        action = planned_action(
            self.session.history, call_id, command=command, cwd=cwd, reason=reason
        )
        assessment = await self.assess(action)
        decision = self._decided(call_id, "exec", assessment, command, cwd)
        # After a sandbox denial the question is whether to re-run outside: a "no" keeps the
        # sandboxed result as the output; an MCP call reports its own refusal.
        if decision == "denied" and reason != DENIAL_QUESTION and command[:1] != ["mcp"]:
            raise RespondToModel(denial_text(assessment))
        return decision

    async def review_patch(
        self,
        call_id: str,
        changes: dict[str, FileChange],
        reason: str | None,
        _grant_root: str | None,
    ) -> ReviewDecision:
        """Stand in for the user on a patch."""
        action = planned_action(self.session.history, call_id, changes=changes, reason=reason)
        assessment = await self.assess(action)
        decision = self._decided(call_id, "patch", assessment, None, None)
        if decision == "denied":
            raise RespondToModel(denial_text(assessment))
        return decision


def install_auto_review(
    ctx: ToolContext, session: TurnHost, emit: Callable[[EventMsg], None]
) -> ToolContext:
    """Route `ctx`'s approval requests to the reviewer (when the config asks for it)."""
    if session.config.approvals_reviewer not in AUTO_REVIEWERS:
        return ctx
    reviewer = AutoReviewer(session, ctx.turn, emit, timeout_s=REVIEW_TIMEOUT_S)
    ctx.request_exec_approval = reviewer.review_exec
    ctx.request_patch_approval = reviewer.review_patch
    return ctx
