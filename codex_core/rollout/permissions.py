"""A sandbox policy as 0.169's permission profile and file-system policy (what it records in
`turn_context` and in `state_5.sqlite`'s `sandbox_policy` column).

Both list the same entries: the whole disk readable; under workspace-write the working
directory and each writable root writable, then `/tmp` and `$TMPDIR` unless excluded, then
the sandbox's protected names (`.git`, `.agents`, `.codex`, `.aws`) under each of those roots
read-only, grouped by name, "skip" when missing. Observed side by side with 0.169
(tests/compat/test_turn_context_0169.py).
"""

from __future__ import annotations

from typing import Any

from codex_core.policies import SandboxPolicy, WorkspaceWritePolicy
from sandbox_helper.policy import PROTECTED_SUBDIRS


def _special(kind: str, access: str) -> dict[str, Any]:
    return {"path": {"type": "special", "value": {"kind": kind}}, "access": access}


def _path(path: str, access: str) -> dict[str, Any]:
    return {"path": {"type": "path", "path": path}, "access": access}


def file_system_entries(policy: SandboxPolicy, cwd: str) -> list[dict[str, Any]]:
    """The restricted file-system entries of a read-only or workspace-write `policy`."""
    entries = [_special("root", "read")]
    if not isinstance(policy, WorkspaceWritePolicy):
        return entries
    roots = [cwd, *(r for r in policy.writable_roots if r != cwd)]
    entries += [_path(root, "write") for root in roots]
    if not policy.exclude_slash_tmp:
        entries.append(_special("slash_tmp", "write"))
    if not policy.exclude_tmpdir_env_var:
        entries.append(_special("tmpdir", "write"))
    entries += [
        {**_path(f"{root.rstrip('/')}/{name}", "read"), "missing_path_behavior": "skip"}
        for name in PROTECTED_SUBDIRS
        for root in roots
    ]
    return entries


def permission_profile(policy: SandboxPolicy, cwd: str) -> dict[str, Any]:
    """0.169's `permission_profile` for `policy` in `cwd`: `disabled` without a sandbox."""
    if policy.mode == "danger-full-access":
        return {"type": "disabled"}
    network = isinstance(policy, WorkspaceWritePolicy) and policy.network_access
    return {
        "type": "managed",
        "file_system": {"type": "restricted", "entries": file_system_entries(policy, cwd)},
        "network": "enabled" if network else "restricted",
    }


def file_system_sandbox_policy(policy: SandboxPolicy, cwd: str) -> dict[str, Any] | None:
    """0.169's `file_system_sandbox_policy` (written for workspace-write only), else None."""
    if not isinstance(policy, WorkspaceWritePolicy):
        return None
    return {"kind": "restricted", "entries": file_system_entries(policy, cwd)}
