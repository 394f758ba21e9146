"""The reviewer's answer: parsed from its JSON, and rendered as the Codex CLI 0.169 prints it.

A rendered review is the overall explanation, then the findings as a list::

    <overall_explanation>

    Review comment:

    - [P1] <title> — <absolute path>:<start>-<end>
      <body>

(`Full review comments:` when there are several). An answer that is not the JSON asked for
is shown as it is.
"""

from __future__ import annotations

import json

from codex_core import lite
from codex_core.protocol.review import ReviewFinding, ReviewOutput


def parse_review_output(text: str) -> ReviewOutput | None:
    """The JSON answer in `text` (alone, or the outermost `{…}` inside prose); None if none."""
    candidates = [text.strip()]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for candidate in candidates:
        try:
            data = json.loads(candidate)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        try:
            return ReviewOutput.model_validate(data)
        except lite.ValidationError:
            continue
    return None


def _finding_lines(finding: ReviewFinding) -> list[str]:
    head = f"- {finding.title}"
    where = finding.code_location
    if where is not None:
        span = where.line_range
        head += f" — {where.absolute_file_path}:{span.start}-{span.end}"
    lines = [head]
    lines.extend(f"  {line}" if line else "" for line in finding.body.splitlines())
    return lines


def render_review(output: ReviewOutput) -> str:
    """The review as text: the explanation, then each finding with where it is."""
    parts: list[str] = []
    if output.overall_explanation.strip():
        parts.append(output.overall_explanation.strip())
    if output.findings:
        header = "Review comment:" if len(output.findings) == 1 else "Full review comments:"
        parts.append(header)
        parts.extend("\n".join(_finding_lines(f)) for f in output.findings)
    return "\n\n".join(parts)


def review_text(answer: str | None) -> tuple[str, ReviewOutput | None]:
    """What to show for the reviewer's last message, and its parsed form when it is JSON."""
    if answer is None:
        return "", None
    output = parse_review_output(answer)
    if output is None:
        return answer.strip(), None
    return render_review(output) or answer.strip(), output
