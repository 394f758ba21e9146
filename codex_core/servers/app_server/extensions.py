"""`hooks/list` and `skills/list`: what a client shows in its hooks and skills panels.

Both read the same sources a session would (`codex_core.hooks`, `codex_core.skills`) for
each asked working directory, with the server's `-c` overrides.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from codex_core.config import Config, ConfigOverrides, load_config
from codex_core.frontend.git import find_git_root
from codex_core.hooks.sources import load_hooks
from codex_core.servers.app_server import model_extensions as x
from codex_core.servers.app_server.context import ServerContext
from codex_core.skills import load_skills


def _config(server: ServerContext, cwd: str | None) -> Config:
    overrides = ConfigOverrides(cwd=Path(cwd)) if cwd else None
    return load_config(overrides, server.cli_overrides)


def _hooks_for(server: ServerContext, cwd: str | None) -> x.HooksListEntry:
    return _hooks_entry(_config(server, cwd))


def _skills_for(server: ServerContext, cwd: str | None) -> x.SkillsListEntry:
    return _skills_entry(_config(server, cwd))


def _hooks_entry(config: Config) -> x.HooksListEntry:
    root = find_git_root(config.cwd) or config.cwd
    trusted = config.project_trust_level(root) == "trusted"
    catalog = load_hooks(config.codex_home, config.hooks, root if trusted else None, config.plugins)
    hooks = [
        x.HookMetadata(
            key=hook.key,
            eventName=hook.event.camel,
            command=hook.command,
            matcher=hook.matcher,
            timeoutSec=hook.timeout,
            statusMessage=hook.status_message,
            currentHash=hook.listed_hash,
            displayOrder=index,
            enabled=catalog.enabled(hook),
            source=hook.source,
            sourcePath=str(hook.source_path),
            pluginId=hook.plugin.plugin_id if hook.plugin else None,
            trustStatus=catalog.trust(hook),
        )
        for index, hook in enumerate(catalog.hooks)
    ]
    return x.HooksListEntry(cwd=str(config.cwd), hooks=hooks, warnings=catalog.warnings)


async def hooks_list(server: ServerContext, params: x.HooksListParams) -> x.HooksListResponse:
    """The hooks of each directory in `cwds` (the server's cwd when empty)."""
    cwds: list[str | None] = list(params.cwds) or [None]
    if params.threadId is not None:
        cwds = [str(server.thread(params.threadId).config.cwd)]
    entries = [await asyncio.to_thread(_hooks_for, server, cwd) for cwd in cwds]
    return x.HooksListResponse(data=entries)


def _skills_entry(config: Config) -> x.SkillsListEntry:
    found = load_skills(config.codex_home, config.cwd, config.skills, plugins=config.plugins)
    listed = sorted(
        [(skill, True) for skill in found.skills] + [(skill, False) for skill in found.disabled],
        key=lambda pair: (pair[0].scope, pair[0].name, str(pair[0].path)),
    )
    return x.SkillsListEntry(
        cwd=str(config.cwd),
        errors=[x.SkillErrorInfo(message=why, path=str(path)) for path, why in found.errors],
        skills=[
            x.SkillMetadata(
                name=skill.name,
                description=skill.description,
                enabled=enabled,
                path=str(skill.path),
                scope=skill.scope,
                pluginId=skill.plugin_id,
            )
            for skill, enabled in listed
        ],
    )


async def skills_list(server: ServerContext, params: x.SkillsListParams) -> x.SkillsListResponse:
    """The skills of each directory in `cwds` (the server's cwd when empty)."""
    cwds: list[str | None] = list(params.cwds) or [None]
    entries = [await asyncio.to_thread(_skills_for, server, cwd) for cwd in cwds]
    return x.SkillsListResponse(data=entries)
