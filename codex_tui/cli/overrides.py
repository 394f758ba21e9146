"""Mapping command-line flags onto config overrides (shared by the TUI and exec)."""

from __future__ import annotations

import argparse
from pathlib import Path

from codex_core.config import ConfigOverrides


def overrides_from_args(ns: argparse.Namespace, *, approval: str | None) -> ConfigOverrides:
    """ConfigOverrides for the common flags; `--full-auto` and `--yolo` pick policy pairs."""
    sandbox = ns.sandbox
    reviewer = None
    if getattr(ns, "approve_for_me", False):
        approval, sandbox, reviewer = _approve_for_me(ns)
    elif ns.yolo:
        sandbox, approval = "danger-full-access", "never"
    elif ns.full_auto:
        sandbox = sandbox or "workspace-write"
        approval = approval or "on-request"
    return ConfigOverrides(
        model=ns.model,
        cwd=_session_cwd(ns),
        approval_policy=approval,  # type: ignore[arg-type]
        sandbox_mode=sandbox,
        profile=ns.profile,
        oss=bool(ns.oss),
        search=bool(getattr(ns, "search", False)),
        bypass_hook_trust=bool(getattr(ns, "bypass_hook_trust", False)),
        approvals_reviewer=reviewer,
    )


def _approve_for_me(ns: argparse.Namespace) -> tuple[str, str, str]:
    """`--approve-for-me`: on-request in workspace-write, the reviewer answering; like
    Codex 0.169 it refuses the flags that choose a policy themselves."""
    from codex_tui.cli.args import UsageError

    for flag, given in (
        ("--sandbox", ns.sandbox),
        ("--ask-for-approval", getattr(ns, "ask_for_approval", None)),
        ("--full-auto", ns.full_auto),
        ("--dangerously-bypass-approvals-and-sandbox", ns.yolo),
    ):
        if given:
            raise UsageError(f"codex: --approve-for-me cannot be used with {flag}")
    return "on-request", "workspace-write", "auto_review"


def _session_cwd(ns: argparse.Namespace) -> Path | None:
    """`--cd`; with `--worktree`, the same directory in a new managed worktree of HEAD.

    Raises:
        CommandFailed: The worktree cannot be made (no repository, no commit, git failed).
    """
    cwd = Path(ns.cd).expanduser() if ns.cd else None
    if not getattr(ns, "worktree", False):
        return cwd
    from codex_core.config import ConfigError, find_codex_home
    from codex_core.managed_worktree import WorktreeError, create_managed_worktree
    from codex_tui.cli.args import CommandFailed

    try:
        return create_managed_worktree(find_codex_home(), cwd or Path.cwd())
    except (WorktreeError, ConfigError) as err:
        raise CommandFailed(str(err)) from None


def split_image_args(values: list[str]) -> list[str]:
    """`-i a.png b.png`, `-i a.png -i b.png` and `-i a.png,b.png` alike: every image named,
    in order. Like Codex 0.169's, `-i` takes every value that follows it, so a prompt goes
    before it or after `--`."""
    return [part for value in values for part in value.split(",") if part]
