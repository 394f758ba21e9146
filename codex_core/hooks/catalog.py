"""Hook definitions and their trust, as Codex CLI 0.169 reads them.

A hook is one handler of one matcher group of one event in one source file; its key is
`<file>:<event_label>:<group>:<handler>`. It runs only when `[hooks.state."<key>"]` in the
user's config.toml records `trusted_hash` equal to its current hash (sha256 of the compact,
key-sorted JSON of what it does) and does not say `enabled = false` — a hook trusted by
either tool runs in the other, and a hook changed since it was trusted stops running.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

DEFAULT_TIMEOUT_SECONDS = 600
HookSource = Literal["user", "project", "plugin"]
TrustStatus = Literal["trusted", "untrusted", "modified"]


@dataclass(frozen=True)
class EventKind:
    """One hook event: its config name, its label in keys and hashes, and whether it matches."""

    name: str
    label: str
    uses_matcher: bool
    turn_scoped: bool = True

    @property
    def camel(self) -> str:
        """The app-server's name (`preToolUse`)."""
        return self.name[0].lower() + self.name[1:]


EVENTS: dict[str, EventKind] = {
    kind.name: kind
    for kind in (
        EventKind("PreToolUse", "pre_tool_use", True),
        EventKind("PermissionRequest", "permission_request", True),
        EventKind("PostToolUse", "post_tool_use", True),
        EventKind("PreCompact", "pre_compact", True),
        EventKind("PostCompact", "post_compact", True),
        EventKind("SessionStart", "session_start", True, turn_scoped=False),
        EventKind("SessionEnd", "session_end", False, turn_scoped=False),
        EventKind("UserPromptSubmit", "user_prompt_submit", False),
        EventKind("SubagentStart", "subagent_start", False),
        EventKind("SubagentStop", "subagent_stop", False),
        EventKind("Stop", "stop", False),
    )
}


@dataclass(frozen=True)
class PluginOrigin:
    """Where a plugin's hook comes from, and whether the plugin is still as installed."""

    plugin_id: str
    key_source: str
    """`<plugin id>:<hooks file relative to the plugin>`."""
    env: tuple[tuple[str, str], ...]
    """PLUGIN_ROOT, PLUGIN_DATA and their CLAUDE_ aliases."""
    content_hash: str
    pinned: bool
    """False when the installed copy changed since `codex plugin add` recorded it."""


@dataclass(frozen=True)
class HookDef:
    """One command hook."""

    event: EventKind
    source: HookSource
    source_path: Path
    group: int
    handler: int
    command: str
    timeout: int
    matcher: str | None = None
    status_message: str | None = None
    plugin: PluginOrigin | None = None
    """The installed plugin the hook comes from (None for the user's and project's hooks)."""

    @property
    def key(self) -> str:
        """`<file>:<event_label>:<group>:<handler>`, the `[hooks.state]` key; a plugin's hook
        names its file `<plugin id>:<path in the plugin>` as 0.169 does."""
        where = self.plugin.key_source if self.plugin else self.source_path
        return f"{where}:{self.event.label}:{self.group}:{self.handler}"

    @property
    def listed_hash(self) -> str:
        """What `hooks/list` shows as `currentHash`: a plugin hook's adds the plugin's content
        hash after a `/` as 0.169's does (our content hash is our own computation)."""
        if self.plugin is None:
            return self.current_hash
        return f"{self.current_hash}/{self.plugin.content_hash}"

    @property
    def current_hash(self) -> str:
        """`sha256:<hex>` of what the hook does, computed as 0.169 computes it."""
        handler: dict[str, Any] = {
            "type": "command",
            "command": self.command,
            "timeout": self.timeout,
            "async": False,
        }
        if self.status_message is not None:
            handler["statusMessage"] = self.status_message
        described: dict[str, Any] = {"event_name": self.event.label, "hooks": [handler]}
        if self.matcher is not None:
            described["matcher"] = self.matcher
        text = json.dumps(described, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


@dataclass
class HookCatalog:
    """Every hook found for a session, the trust record, and what was wrong on the way."""

    hooks: list[HookDef] = field(default_factory=list)
    state: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def trust(self, hook: HookDef) -> TrustStatus:
        """Whether `hook` is trusted as it is now, was trusted before a change, or never was."""
        recorded = self.state.get(hook.key, {}).get("trusted_hash")
        if recorded is None:
            return "untrusted"
        if hook.plugin is not None and not hook.plugin.pinned:
            return "modified"  # its plugin's files changed after it was installed
        return "trusted" if recorded == hook.current_hash else "modified"

    def enabled(self, hook: HookDef) -> bool:
        """False when `[hooks.state."<key>"] enabled = false`."""
        return self.state.get(hook.key, {}).get("enabled", True) is not False

    def runnable(self, event: str, *, bypass_trust: bool = False) -> list[HookDef]:
        """The hooks of `event` that may run."""
        return [
            hook
            for hook in self.hooks
            if hook.event.name == event
            and self.enabled(hook)
            and (bypass_trust or self.trust(hook) == "trusted")
        ]


def hooks_from_table(
    table: Mapping[str, Any],
    source: HookSource,
    path: Path,
    catalog: HookCatalog,
    plugin: PluginOrigin | None = None,
) -> None:
    """Add the hooks of one `{"<Event>": [groups]}` table (hooks.json's `hooks`, or config's)."""
    for event_name, groups in table.items():
        kind = EVENTS.get(event_name)
        if kind is None:
            if event_name != "state":
                catalog.warnings.append(f"unknown hook event {event_name!r} in {path}; ignored")
            continue
        if not isinstance(groups, list):
            catalog.warnings.append(f"hooks.{event_name} in {path} must be a list; ignored")
            continue
        for group_index, group in enumerate(groups):
            _add_group(kind, group, group_index, source, path, catalog, plugin)


def _add_group(
    kind: EventKind,
    group: Any,
    index: int,
    source: HookSource,
    path: Path,
    catalog: HookCatalog,
    plugin: PluginOrigin | None,
) -> None:
    if not isinstance(group, Mapping) or not isinstance(group.get("hooks"), list):
        catalog.warnings.append(f"a {kind.name} hook group in {path} has no `hooks` list; ignored")
        return
    matcher = group.get("matcher") if kind.uses_matcher else None
    for handler_index, handler in enumerate(group["hooks"]):
        if not isinstance(handler, Mapping):
            continue
        kind_of = handler.get("type", "command")
        if kind_of in ("prompt", "agent"):
            catalog.warnings.append(
                f"skipping {kind_of} hook in {path}: {kind_of} hooks are not supported yet"
            )
            continue
        command = handler.get("command")
        if kind_of != "command" or not isinstance(command, str):
            catalog.warnings.append(f"a {kind.name} hook in {path} has no command; ignored")
            continue
        timeout = handler.get("timeout")
        seconds = timeout if isinstance(timeout, int) and not isinstance(timeout, bool) else None
        status = handler.get("statusMessage")
        catalog.hooks.append(
            HookDef(
                event=kind,
                source=source,
                source_path=path,
                group=index,
                handler=handler_index,
                command=command,
                timeout=max(1, DEFAULT_TIMEOUT_SECONDS if seconds is None else seconds),
                matcher=matcher if isinstance(matcher, str) else None,
                status_message=status if isinstance(status, str) else None,
                plugin=plugin,
            )
        )
