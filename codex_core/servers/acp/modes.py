"""Session modes offered to ACP clients, as approval policy + sandbox presets (as Zed's Codex
adapter names them)."""

from __future__ import annotations

from dataclasses import dataclass

from codex_core.protocol import AskForApproval, SandboxPolicy, sandbox_policy_from_mode


@dataclass(frozen=True)
class ModePreset:
    """One mode: its id, name, description and the policies it selects."""

    id: str
    name: str
    description: str
    approval: AskForApproval
    sandbox_mode: str

    def sandbox(self) -> SandboxPolicy:
        """The sandbox policy of this preset."""
        return sandbox_policy_from_mode(self.sandbox_mode)


PRESETS: tuple[ModePreset, ...] = (
    ModePreset(
        "read-only",
        "Read Only",
        "Codex can read files and answer questions; edits and commands need approval.",
        "on-request",
        "read-only",
    ),
    ModePreset(
        "auto",
        "Auto",
        "Codex can read and edit files and run commands in the workspace; it asks to go beyond it.",
        "on-request",
        "workspace-write",
    ),
    ModePreset(
        "full-access",
        "Full Access",
        "Codex can edit files and run commands anywhere, with network, without asking.",
        "never",
        "danger-full-access",
    ),
)
BY_ID = {preset.id: preset for preset in PRESETS}


def mode_of(approval: AskForApproval, sandbox_mode: str) -> str:
    """The id of the preset matching the policies (the closest one otherwise)."""
    for preset in PRESETS:
        if preset.approval == approval and preset.sandbox_mode == sandbox_mode:
            return preset.id
    if sandbox_mode == "danger-full-access":
        return "full-access"
    return "auto" if sandbox_mode == "workspace-write" else "read-only"
