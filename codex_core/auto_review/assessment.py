"""The reviewer's answer: its JSON schema (0.169's fields), parsing, and the model's denial."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

RISK_LEVELS = ("low", "medium", "high", "critical")
AUTHORIZATION_LEVELS = ("unknown", "low", "medium", "high")

ASSESSMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "risk_level": {"type": "string", "enum": list(RISK_LEVELS)},
        "user_authorization": {"type": "string", "enum": list(AUTHORIZATION_LEVELS)},
        "outcome": {"type": "string", "enum": ["allow", "deny"]},
        "rationale": {"type": "string"},
    },
    # 0.169 requires only `outcome` (a non-strict schema); a strict schema must list all.
    "required": ["risk_level", "user_authorization", "outcome", "rationale"],
}
"""The answer's shape, sent as the request's output schema."""


@dataclass(frozen=True)
class Assessment:
    """What the reviewer decided; `failure` says why there is no usable answer (a deny)."""

    outcome: Literal["allow", "deny"]
    rationale: str = ""
    risk_level: str | None = None
    user_authorization: str | None = None
    failure: str | None = None

    @classmethod
    def failed(cls, why: str) -> Assessment:
        """No usable answer: deny, saying why."""
        return cls("deny", failure=why)


def parse_assessment(text: str) -> Assessment:
    """The reviewer's JSON answer; anything but a well-formed `allow`/`deny` is a failure."""
    try:
        data = json.loads(text.strip())
    except ValueError:
        return Assessment.failed("the reviewer's answer was not valid JSON")
    if not isinstance(data, dict):
        return Assessment.failed("the reviewer's answer was not a JSON object")
    outcome = data.get("outcome")
    if outcome not in ("allow", "deny"):
        return Assessment.failed("the reviewer's answer had no allow/deny outcome")
    rationale = data.get("rationale")
    risk = data.get("risk_level")
    authorization = data.get("user_authorization")
    return Assessment(
        outcome,
        rationale.strip() if isinstance(rationale, str) else "",
        risk if risk in RISK_LEVELS else None,
        authorization if authorization in AUTHORIZATION_LEVELS else None,
    )


def denial_text(assessment: Assessment) -> str:
    """What the model reads as the refused call's output."""
    if assessment.failure is not None:
        return (
            f"Automatic approval review could not decide ({assessment.failure}), so the "
            "action was not run. This is not a judgement that it is unsafe; do not try to "
            "get around the approval check — fix the cause or ask the user."
        )
    why = assessment.rationale or "no reason given"
    return (
        "Automatic approval review denied this action as too risky.\n"
        f"Reason: {why}\n"
        "Do not try to reach the same result another way or around the check; take a "
        "clearly safer approach, or stop and ask the user, who can approve it knowing the "
        "risk."
    )
