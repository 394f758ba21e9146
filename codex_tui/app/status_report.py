"""The rows `/status` shows, from the facts the chat screen knows (pure)."""

from __future__ import annotations

from dataclasses import dataclass, field

from codex_core.protocol.common import SandboxPolicy, TokenUsage
from codex_tui.app.formatting import shorten_path


@dataclass(frozen=True)
class StatusFacts:
    """Everything `/status` reports."""

    model: str | None
    effort: str | None
    provider: str | None
    cwd: str | None
    approval: str | None
    sandbox: SandboxPolicy | None
    session_id: str | None
    codex_home: str | None
    agents_files: list[str] = field(default_factory=list)
    usage: TokenUsage | None = None
    context_left: int | None = None
    context_window: int | None = None
    notifications: bool | list[str] = False


def compact_count(n: int) -> str:
    """`950`, `12.3K`, `1.2M`."""
    if n < 1000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1000:.1f}K".replace(".0K", "K")
    return f"{n / 1_000_000:.1f}M".replace(".0M", "M")


def sandbox_text(policy: SandboxPolicy | None, cwd: str | None) -> str:
    """The sandbox mode, with the writable roots for workspace-write."""
    if policy is None:
        return "default"
    if policy.mode != "workspace-write":
        return policy.mode
    roots = [shorten_path(cwd or "."), *(shorten_path(r) for r in policy.writable_roots)]
    if not policy.exclude_slash_tmp:
        roots.append("/tmp")
    if not policy.exclude_tmpdir_env_var:
        roots.append("$TMPDIR")
    network = "network on" if policy.network_access else "network off"
    return f"workspace-write ({network}; writable: {', '.join(roots)})"


def notifications_text(setting: bool | list[str]) -> str:
    """`tui.notifications` in words."""
    if setting is True:
        return "on (turn complete, approval requested) when the terminal is unfocused"
    if not setting:
        return "off (set tui.notifications in config.toml)"
    return ", ".join(setting) + " when the terminal is unfocused"


def status_rows(facts: StatusFacts) -> list[tuple[str, str]]:
    """Label/value rows in the order a user scans them."""
    model = facts.model or "unknown"
    if facts.effort:
        model += f" (reasoning {facts.effort})"
    rows = [
        ("Model", model),
        ("Provider", facts.provider or "openai"),
        ("Directory", shorten_path(facts.cwd or ".")),
        ("Approval", facts.approval or "default"),
        ("Sandbox", sandbox_text(facts.sandbox, facts.cwd)),
        ("AGENTS.md", ", ".join(shorten_path(p) for p in facts.agents_files) or "none"),
        ("CODEX_HOME", shorten_path(facts.codex_home) if facts.codex_home else "unknown"),
        ("Session", facts.session_id or "starting…"),
        ("Notifications", notifications_text(facts.notifications)),
    ]
    usage = facts.usage
    if usage is not None:
        total = usage.total_tokens or usage.input_tokens + usage.output_tokens
        rows.append(
            (
                "Token usage",
                f"{compact_count(total)} total ({compact_count(usage.input_tokens)} input + "
                f"{compact_count(usage.output_tokens)} output)",
            )
        )
    else:
        rows.append(("Token usage", "none yet"))
    if facts.context_window:
        # Before the first token count nothing of the window is used yet.
        left = 100 if facts.context_left is None else facts.context_left
        rows.append(("Context window", f"{left}% left of {compact_count(facts.context_window)}"))
    elif facts.context_left is not None:
        rows.append(("Context window", f"{facts.context_left}% left"))
    return rows
