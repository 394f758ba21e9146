"""`ConfigOverrides`: the settings dedicated command-line flags carry (standard library only).

Kept apart from the resolved `Config` so a frontend can map its flags before pydantic and
the protocol models load (the TUI paints its first frame in that time).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codex_core.policies import AskForApproval, GranularApproval


@dataclass
class ConfigOverrides:
    """Settings from dedicated command-line flags; they beat every other source."""

    model: str | None = None
    cwd: Path | None = None
    approval_policy: AskForApproval | None = None
    granular: GranularApproval | None = None
    """With `approval_policy = "granular"` (an app-server client's `{"granular": {...}}`)."""
    sandbox_mode: str | None = None
    model_provider: str | None = None
    profile: str | None = None
    oss: bool = False
    base_instructions: str | None = None
    search: bool = False
    """`--search`: live web search (`web_search = "live"`)."""
    bypass_hook_trust: bool = False
    """`--dangerously-bypass-hook-trust`: enabled hooks run without recorded trust."""
    approvals_reviewer: str | None = None
    """`--approve-for-me`: `auto_review` (approvals go to the reviewer model call)."""
    tui_policies: bool = False
    """The interactive TUI's defaults for an unset sandbox mode / approval policy, which
    follow the folder's trust as codex-rust 0.169's TUI (resolve.default_policies)."""
