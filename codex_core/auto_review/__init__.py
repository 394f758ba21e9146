"""Automatic approval review (`approvals_reviewer = "auto_review"`, `--approve-for-me`).

Approval requests that would go to the user go to a reviewer model call instead, as the
Codex CLI 0.169's guardian does: it sees the conversation and the planned action, and
answers allow or deny in a fixed JSON shape. It can only answer what the user would have
been asked — it never changes the sandbox or the approval policy, and never approves for
the session — and anything but a clear "allow" (a malformed answer, an error, a timeout)
denies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codex_core.lazy import lazy_attributes

if TYPE_CHECKING:
    from codex_core.auto_review.assessment import (
        ASSESSMENT_SCHEMA,
        Assessment,
        denial_text,
        parse_assessment,
    )
    from codex_core.auto_review.context import planned_action, review_request_text
    from codex_core.auto_review.reviewer import AUTO_REVIEWERS, AutoReviewer, install_auto_review

_MODULE_OF = {
    "ASSESSMENT_SCHEMA": "assessment",
    "Assessment": "assessment",
    "denial_text": "assessment",
    "parse_assessment": "assessment",
    "planned_action": "context",
    "review_request_text": "context",
    "AUTO_REVIEWERS": "reviewer",
    "AutoReviewer": "reviewer",
    "install_auto_review": "reviewer",
}
"""Where each name lives: loaded on first use, so a session imports only what its first
request needs (issue 29)."""

__all__ = [
    "ASSESSMENT_SCHEMA",
    "AUTO_REVIEWERS",
    "Assessment",
    "AutoReviewer",
    "denial_text",
    "install_auto_review",
    "parse_assessment",
    "planned_action",
    "review_request_text",
]

__getattr__ = lazy_attributes(__name__, _MODULE_OF, globals())
