"""Unified exec: long-lived command sessions the model drives with `exec_command` + `write_stdin`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from codex_core.lazy import lazy_attributes

if TYPE_CHECKING:
    from codex_core.unified_exec.manager import ProcessManager, UnifiedExecProcess
    from codex_core.unified_exec.output import format_response, truncate_to_tokens

_MODULE_OF = {
    "ProcessManager": "manager",
    "UnifiedExecProcess": "manager",
    "format_response": "output",
    "truncate_to_tokens": "output",
}
"""Where each name lives: loaded on first use, so a session imports only what its first
request needs (issue 29)."""

__all__ = ["ProcessManager", "UnifiedExecProcess", "format_response", "truncate_to_tokens"]

__getattr__ = lazy_attributes(__name__, _MODULE_OF, globals())
