"""A code review of the working tree, a branch or a commit, and what the reviewer answers.

A frontend submits `review` with a target; the session runs the review as a turn of its own
(`codex_core.session.review`): a reviewer with its own instructions, a read-only sandbox and
no approvals looks at the target with git, and its answer (`ReviewOutput`, the JSON the
Codex CLI 0.169 asks for) is rendered as the turn's agent message.
"""

from typing import Annotated, Literal

from codex_core.lite import Field
from codex_core.policies import empty_list
from codex_core.protocol.common import _Model


class UncommittedTarget(_Model):
    """Staged, unstaged and untracked changes."""

    type: Literal["uncommittedChanges"] = "uncommittedChanges"


class BaseBranchTarget(_Model):
    """The changes of the current branch against `branch` (from their merge base)."""

    type: Literal["baseBranch"] = "baseBranch"
    branch: str


class CommitTarget(_Model):
    """The changes one commit introduced."""

    type: Literal["commit"] = "commit"
    sha: str
    title: str | None = None


class CustomTarget(_Model):
    """Whatever the user's own instructions ask for."""

    type: Literal["custom"] = "custom"
    instructions: str


ReviewTarget = Annotated[
    UncommittedTarget | BaseBranchTarget | CommitTarget | CustomTarget,
    Field(discriminator="type"),
]


class ReviewOp(_Model):
    """Review `target` as a turn of its own; its answer joins the conversation."""

    type: Literal["review"] = "review"
    target: ReviewTarget


class LineRange(_Model):
    """Lines of a file, both ends included."""

    start: int
    end: int


class CodeLocation(_Model):
    """Where a finding is."""

    absolute_file_path: str
    line_range: LineRange


class ReviewFinding(_Model):
    """One problem the reviewer reports (its title starts with a `[P0]`…`[P3]` tag)."""

    title: str
    body: str = ""
    confidence_score: float | None = None
    priority: int | None = None
    code_location: CodeLocation | None = None


class ReviewOutput(_Model):
    """The reviewer's answer, in the JSON shape its instructions ask for."""

    findings: list[ReviewFinding] = Field(default_factory=empty_list)
    overall_correctness: str = ""
    overall_explanation: str = ""
    overall_confidence_score: float | None = None


__all__ = [
    "BaseBranchTarget",
    "CodeLocation",
    "CommitTarget",
    "CustomTarget",
    "LineRange",
    "ReviewFinding",
    "ReviewOp",
    "ReviewOutput",
    "ReviewTarget",
    "UncommittedTarget",
]
