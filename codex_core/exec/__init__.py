"""Running model-requested commands: sandbox selection, helper argv, spawn, output digest."""

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
