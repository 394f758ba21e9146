"""Unified exec: long-lived command sessions the model drives with `exec_command` + `write_stdin`."""

from codex_core.unified_exec.manager import ProcessManager, UnifiedExecProcess
from codex_core.unified_exec.output import format_response, truncate_to_tokens

__all__ = ["ProcessManager", "UnifiedExecProcess", "format_response", "truncate_to_tokens"]
