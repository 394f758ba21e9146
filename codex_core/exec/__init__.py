"""Running model-requested commands: sandbox selection, helper argv, spawn, output digest."""

from __future__ import annotations

from typing import TYPE_CHECKING

from codex_core.lazy import lazy_attributes

if TYPE_CHECKING:
    from codex_core.exec.output import format_output_for_model
    from codex_core.exec.params import ExecParams, ExecResult
    from codex_core.exec.sandbox import (
        SandboxType,
        SandboxUnavailable,
        is_likely_sandbox_denied,
        sandbox_argv,
        sandbox_env,
        select_sandbox,
    )
    from codex_core.exec.spawn import run_exec

_MODULE_OF = {
    "format_output_for_model": "output",
    "ExecParams": "params",
    "ExecResult": "params",
    "SandboxType": "sandbox",
    "SandboxUnavailable": "sandbox",
    "is_likely_sandbox_denied": "sandbox",
    "sandbox_argv": "sandbox",
    "sandbox_env": "sandbox",
    "select_sandbox": "sandbox",
    "run_exec": "spawn",
}
"""Where each name lives: loaded on first use, so a session imports only what its first
request needs (issue 29)."""

__all__ = [
    "ExecParams",
    "ExecResult",
    "SandboxType",
    "SandboxUnavailable",
    "format_output_for_model",
    "is_likely_sandbox_denied",
    "run_exec",
    "sandbox_argv",
    "sandbox_env",
    "select_sandbox",
]

__getattr__ = lazy_attributes(__name__, _MODULE_OF, globals())
