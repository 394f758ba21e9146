"""The environment handed to model-run commands, built from `shell_environment_policy`."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

Inherit = Literal["all", "core", "none"]

# Variables a shell needs to behave normally; kept by `inherit = "core"`.
CORE_ENV_VARS = frozenset(
    {"HOME", "LOGNAME", "PATH", "SHELL", "USER", "USERNAME", "TMPDIR", "TEMP", "TMP", "LANG"}
)
# Locale variables (LC_ALL, LC_CTYPE, ...) are also core: without them tools garble UTF-8.
CORE_ENV_PATTERNS = ("LC_*",)
# Names that usually hold credentials; dropped unless `ignore_default_excludes = true`.
DEFAULT_EXCLUDES = ("*KEY*", "*SECRET*", "*TOKEN*")


@dataclass
class ShellEnvironmentPolicy:
    """Which variables of the parent environment reach model-run commands.

    Applied in order: `inherit` picks the starting set, the default excludes drop
    likely secrets, `exclude` drops more, `set` adds fixed values, and a non-empty
    `include_only` finally keeps only the matching names. Patterns are
    case-insensitive globs.
    """

    inherit: Inherit = "all"
    ignore_default_excludes: bool = False
    exclude: list[str] = field(default_factory=list)
    set: dict[str, str] = field(default_factory=dict)
    include_only: list[str] = field(default_factory=list)


def matches_any(name: str, patterns: Iterable[str]) -> bool:
    """True if `name` matches one of the glob `patterns`, ignoring case."""
    upper = name.upper()
    return any(fnmatch.fnmatchcase(upper, pattern.upper()) for pattern in patterns)


def _is_core(name: str) -> bool:
    return name in CORE_ENV_VARS or matches_any(name, CORE_ENV_PATTERNS)


def create_env(
    policy: ShellEnvironmentPolicy, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment for a model-run command.

    Args:
        policy: The resolved `shell_environment_policy`.
        base: The parent environment; `os.environ` when omitted.

    Returns:
        A new dict; `base` is never modified.
    """
    parent = os.environ if base is None else base
    if policy.inherit == "all":
        env = dict(parent)
    elif policy.inherit == "core":
        env = {name: value for name, value in parent.items() if _is_core(name)}
    else:
        env = {}
    if not policy.ignore_default_excludes:
        env = {k: v for k, v in env.items() if not matches_any(k, DEFAULT_EXCLUDES)}
    if policy.exclude:
        env = {k: v for k, v in env.items() if not matches_any(k, policy.exclude)}
    env.update(policy.set)
    if policy.include_only:
        env = {k: v for k, v in env.items() if matches_any(k, policy.include_only)}
    return env
