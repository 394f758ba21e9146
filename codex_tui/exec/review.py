"""`codex review` and `codex exec review`: a code review run non-interactively.

`[--uncommitted | --base BRANCH | --commit SHA [--title T]] [PROMPT|-]`, as in the Codex
CLI 0.169: the review runs as `codex exec` would run a turn (same header, same human and
`--json` output), with a `review` op instead of a prompt.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from codex_tui.cli.args import UsageError
from codex_tui.exec.cli import review_words as review_words  # moved: exec's dispatch uses it

if TYPE_CHECKING:
    from codex_core.protocol import ReviewTarget

NO_TARGET = "Error: Specify --uncommitted, --base, --commit, or provide custom review instructions"
"""0.169's refusal when nothing says what to review (exit 1)."""


def build_review_parser(prog: str) -> argparse.ArgumentParser:
    """`codex exec`'s options, the review targets, and one optional prompt."""
    from codex_tui.exec.cli import build_exec_parser

    parser = build_exec_parser()
    parser.prog = prog
    parser.description = (
        "Review code changes: the uncommitted ones, a branch against its base, a commit, or "
        "whatever PROMPT asks (`-` reads it from stdin)."
    )
    for action in parser._actions:
        if action.dest == "words":  # exec's positional words: here, the review instructions
            action.metavar = "PROMPT"
            action.help = "custom review instructions (`-` reads them from stdin)"
    parser.add_argument(
        "--uncommitted",
        action="store_true",
        help="review staged, unstaged and untracked changes",
    )
    parser.add_argument("--base", metavar="BRANCH", help="review changes against BRANCH")
    parser.add_argument("--commit", metavar="SHA", help="review the changes a commit introduced")
    parser.add_argument(
        "--title", metavar="TITLE", help="with --commit: its title, shown in the review"
    )
    return parser


def parse_target(ns: argparse.Namespace, prog: str) -> tuple[ReviewTarget | None, str | None]:
    """The review op's target from the parsed flags, and the prompt argument if any."""
    from codex_core.protocol import BaseBranchTarget, CommitTarget, UncommittedTarget

    words: list[str] = ns.words
    if ns.last or ns.all:
        raise UsageError(f"{prog}: --last and --all go with `codex exec resume`")
    if len(words) > 1:
        raise UsageError(f"{prog}: unexpected argument {words[1]!r}; quote the prompt")
    prompt = words[0] if words else None
    flags = (("--uncommitted", ns.uncommitted), ("--base", ns.base), ("--commit", ns.commit))
    chosen = [name for name, value in flags if value]
    if prompt is not None:
        chosen.append("[PROMPT]")
    if len(chosen) > 1:
        raise UsageError(f"{prog}: {chosen[0]} cannot be used with {chosen[1]}")
    if ns.title is not None and not ns.commit:
        raise UsageError(f"{prog}: --title goes with --commit SHA")
    if ns.uncommitted:
        return UncommittedTarget(), None
    if ns.base:
        return BaseBranchTarget(branch=ns.base), None
    if ns.commit:
        return CommitTarget(sha=ns.commit, title=ns.title), None
    return None, prompt


def main(argv: list[str], prog: str = "codex exec review") -> int:
    """Run one review; the exit code is `codex exec`'s."""
    from codex_core.protocol import CustomTarget, ReadOnlyPolicy, ReviewOp
    from codex_core.review import review_hint
    from codex_tui.exec.cli import load_exec_config, read_prompt

    ns = build_review_parser(prog).parse_intermixed_args(argv)
    target, prompt = parse_target(ns, prog)
    if target is None and prompt is None:
        print(NO_TARGET, file=sys.stderr)
        return 1
    config = load_exec_config(ns, prog)
    if config is None:
        return 1
    if target is None:
        text = read_prompt(prompt).strip()
        if not text:
            raise UsageError(f"{prog}: the review instructions are empty")
        target = CustomTarget(instructions=text)
    # The reviewer reads and never asks, whatever the configuration (0.169's header says so).
    config.approval_policy = "never"
    config.sandbox_policy = ReadOnlyPolicy()
    config.ephemeral = bool(ns.ephemeral)
    op = ReviewOp(target=target)
    from codex_tui.exec.run import run_exec_session

    return asyncio.run(
        run_exec_session(
            config,
            review_hint(op.target),
            images=[],
            json_mode=ns.json,
            output_last_message=Path(ns.output_last_message) if ns.output_last_message else None,
            color=_color(ns.color),
            op=op,
        )
    )


def review_main(argv: list[str]) -> int:
    """`codex review`."""
    return main(argv, prog="codex review")


def _color(choice: str) -> bool:
    from codex_tui.exec.cli import _color as exec_color

    return exec_color(choice)
