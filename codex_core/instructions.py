"""Instructions sent with every request: base prompt, AGENTS.md files and the environment context."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from codex_core.frontend.git import find_git_root
from codex_core.policies import GRANULAR_SETTINGS, GranularApproval
from codex_core.protocol import (
    AskForApproval,
    DangerFullAccessPolicy,
    Message,
    SandboxPolicy,
    WorkspaceWritePolicy,
    user_message,
)

PROJECT_DOC_FILENAMES = ("AGENTS.md",)
DEFAULT_PROJECT_DOC_MAX_BYTES = 32 * 1024
USER_INSTRUCTIONS_OPEN = "<user_instructions>"
USER_INSTRUCTIONS_CLOSE = "</user_instructions>"
ENVIRONMENT_CONTEXT_OPEN = "<environment_context>"


PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
"""The package's prompt files (a path beside this module: `importlib.resources` and its
readers cost ~6 ms to import and resolve, before the first request)."""


def base_instructions() -> str:
    """The project's own system prompt describing tools, sandbox and approvals."""
    return (PROMPTS_DIR / "base_instructions.md").read_text("utf-8")


def escape(text: str) -> str:
    """`&`, `<` and `>` as XML entities (what `xml.sax.saxutils.escape` does, without loading
    the `xml.sax` package on the way to the first request)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def project_doc_paths(cwd: Path) -> list[Path]:
    """AGENTS.md files from the git root (or cwd outside a repo) down to cwd, outermost first."""
    cwd = cwd.resolve()
    root = find_git_root(cwd) or cwd
    chain = [cwd, *cwd.parents]
    directories = list(reversed(chain[: chain.index(root) + 1]))
    found: list[Path] = []
    for directory in directories:
        for name in PROJECT_DOC_FILENAMES:
            candidate = directory / name
            if candidate.is_file():
                found.append(candidate)
                break
    return found


def read_project_docs(cwd: Path, max_bytes: int = DEFAULT_PROJECT_DOC_MAX_BYTES) -> str | None:
    """The AGENTS.md texts joined outermost first, capped at `max_bytes` in total."""
    if max_bytes <= 0:
        return None
    parts: list[str] = []
    remaining = max_bytes
    for path in project_doc_paths(cwd):
        try:
            data = path.read_bytes()[:remaining]
        except OSError:
            continue
        text = data.decode("utf-8", errors="ignore").strip()
        if text:
            parts.append(text)
            remaining -= len(data)
        if remaining <= 0:
            break
    return "\n\n".join(parts) or None


def read_global_instructions(codex_home: Path) -> str | None:
    """`$CODEX_HOME/AGENTS.md`: the user's instructions for every project."""
    try:
        text = (codex_home / "AGENTS.md").read_text("utf-8", errors="ignore").strip()
    except OSError:
        return None
    return text or None


def read_user_instructions(
    codex_home: Path | None, cwd: Path, max_bytes: int = DEFAULT_PROJECT_DOC_MAX_BYTES
) -> str | None:
    """Global AGENTS.md first, then the project's (only these count toward `max_bytes`)."""
    parts = [
        text
        for text in (
            read_global_instructions(codex_home) if codex_home is not None else None,
            read_project_docs(cwd, max_bytes),
        )
        if text
    ]
    return "\n\n".join(parts) or None


def user_instructions_message(text: str) -> Message:
    """The user message carrying AGENTS.md content, in the tagged form Codex rollouts use."""
    return user_message(f"{USER_INSTRUCTIONS_OPEN}\n\n{text}\n\n{USER_INSTRUCTIONS_CLOSE}")


@dataclass(frozen=True)
class EnvironmentContext:
    """What the model should know about where and how its commands run."""

    cwd: Path
    approval_policy: AskForApproval
    sandbox_policy: SandboxPolicy
    shell: str
    granular: GranularApproval | None = None
    """`granular`'s settings when chosen (config.toml, a client); the default's go unsaid."""

    def render(self) -> str:
        """The `<environment_context>` block."""
        policy = self.sandbox_policy
        if isinstance(policy, DangerFullAccessPolicy):
            network = "enabled"
        elif isinstance(policy, WorkspaceWritePolicy) and policy.network_access:
            network = "enabled"
        else:
            network = "restricted"
        lines = [
            ENVIRONMENT_CONTEXT_OPEN,
            f"  <cwd>{escape(str(self.cwd))}</cwd>",
            f"  <approval_policy>{self.approval_policy}</approval_policy>",
            *self._granular_lines(),
            f"  <sandbox_mode>{policy.mode}</sandbox_mode>",
            f"  <network_access>{network}</network_access>",
        ]
        if isinstance(policy, WorkspaceWritePolicy) and policy.writable_roots:
            lines.append("  <writable_roots>")
            lines.extend(f"    <root>{escape(r)}</root>" for r in policy.writable_roots)
            lines.append("  </writable_roots>")
        lines.append(f"  <shell>{escape(self.shell)}</shell>")
        lines.append("</environment_context>")
        return "\n".join(lines)

    def _granular_lines(self) -> list[str]:
        """Which kinds of request `granular` still asks about, when its settings were chosen."""
        if self.approval_policy != "granular" or self.granular is None:
            return []
        asks = [name for name in GRANULAR_SETTINGS if getattr(self.granular, name)]
        refused = [name for name in GRANULAR_SETTINGS if not getattr(self.granular, name)]
        return [
            f"  <granular_asks>{', '.join(asks) or 'nothing'}</granular_asks>",
            f"  <granular_refuses>{', '.join(refused) or 'nothing'}</granular_refuses>",
        ]

    def message(self) -> Message:
        """The environment context as a user message."""
        return user_message(self.render())


def user_shell_name() -> str:
    """The user's login shell name (bash, zsh, …)."""
    return Path(os.environ.get("SHELL") or "/bin/bash").name
