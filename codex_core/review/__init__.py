"""Code review: what the reviewer is told about its target, its instructions, its answer.

One implementation for every frontend: the TUI's `/review`, `codex review` and
`codex exec review` all submit a `review` op, which `codex_core.session.review` runs.
"""

from codex_core.review.output import parse_review_output, render_review, review_text
from codex_core.review.targets import review_hint, review_instructions, review_prompt

__all__ = [
    "parse_review_output",
    "render_review",
    "review_hint",
    "review_instructions",
    "review_prompt",
    "review_text",
]
