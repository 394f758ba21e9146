"""`.agents` (the skills and plugin marketplace a later session loads) is fenced like `.git`
and `.codex`: a sandboxed command cannot create or fill it, and a patch into it is outside
the writable roots — which the TUI's `granular` default (a folder with no trust decision,
workspace-write) refuses without asking. codex-rust 0.169 fences the same three (seen: its
`mkdir -p .agents; echo hi > .agents/x` gets "Read-only file system", its patch into
`.codex/` "rejected by user approval settings")."""

from __future__ import annotations

import os
from pathlib import Path

from codex_core.protocol.common import WorkspaceWritePolicy
from codex_core.safety import AutoApprove, Reject, assess_patch_safety

from .test_linux_helpers import cli, linux_sandbox


@linux_sandbox
def test_absent_agents_dir_cannot_be_created_in_the_sandbox(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    script = (
        "mkdir -p .agents/skills/evil 2>/dev/null || echo agents-denied; "
        "touch new-file && echo top-level-ok"
    )
    proc = cli(ws, script)
    assert proc.stdout.splitlines() == ["agents-denied", "top-level-ok"], proc.stderr
    assert sorted(os.listdir(ws)) == ["new-file"]  # no mount point left behind


@linux_sandbox
def test_existing_agents_dir_stays_read_only(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / ".agents" / "skills").mkdir(parents=True)
    proc = cli(ws, "echo x > .agents/skills/SKILL.md 2>/dev/null || echo agents-denied")
    assert proc.stdout.splitlines() == ["agents-denied"], proc.stderr
    assert not (ws / ".agents" / "skills" / "SKILL.md").exists()


def test_granular_refuses_patches_into_protected_dirs(tmp_path: Path) -> None:
    policy = WorkspaceWritePolicy()
    for target in (".agents/skills/x/SKILL.md", ".codex/config.toml", ".git/config"):
        check = assess_patch_safety([Path(target)], "granular", policy, tmp_path, env={})
        assert isinstance(check, Reject), target
    ok = assess_patch_safety([Path("notes.md")], "granular", policy, tmp_path, env={})
    assert isinstance(ok, AutoApprove)
