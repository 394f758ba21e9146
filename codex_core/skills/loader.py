"""Finding skills: the roots Codex CLI 0.169 scans, each `SKILL.md`, and what config turns off.

Roots, in 0.169's order (the order of the `rN` aliases): `<repo>/.codex/skills`,
`$CODEX_HOME/skills`, `~/.agents/skills`, `$CODEX_HOME/skills/.system` (the bundled skills
0.169 writes; ours ships none but lists them), then `.agents/skills` in every directory from
the repository root down to the cwd. Outside a repository the cwd stands for its root.
Installed, enabled plugins add theirs last: the root is the marketplace's folder under
`CODEX_HOME/plugins/cache`, the name `<plugin>:<skill>` (as 0.169 lists them).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from codex_core.frontend.git import find_git_root
from codex_core.skills.frontmatter import FrontmatterError, parse_frontmatter

Scope = Literal["system", "repo", "user"]
SKILL_FILE = "SKILL.md"
MAX_DESCRIPTION_CHARS = 1024
MAX_SCAN_DEPTH = 6
SCOPE_ORDER: dict[Scope, int] = {"system": 0, "repo": 1, "user": 2}


@dataclass(frozen=True)
class Skill:
    """One usable skill."""

    name: str
    description: str
    path: Path
    """The `SKILL.md` file (absolute)."""
    root: Path
    scope: Scope
    plugin_id: str | None = None
    """`<plugin>@<marketplace>` for a plugin's skill."""
    implicit: bool = True
    """False when its `agents/openai.yaml` says `policy: allow_implicit_invocation: false`:
    left out of the model's list (as 0.169 does), still injected on `$name`."""


@dataclass
class SkillSet:
    """The session's skills in listing order, the roots that hold them, and what went wrong."""

    skills: list[Skill] = field(default_factory=list)
    roots: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    """`failed to load skill <path>: <reason>` and config entries that were ignored."""
    disabled: list[Skill] = field(default_factory=list)
    """Skills `[skills]` config turned off (listed by `skills/list`, never to the model)."""
    errors: list[tuple[Path, str]] = field(default_factory=list)
    """(SKILL.md, why it could not be loaded)."""


def skill_roots(
    codex_home: Path,
    cwd: Path,
    home: Path | None = None,
    *,
    bundled: bool = True,
    plugin_roots: tuple[Path, ...] = (),
) -> list[tuple[Path, Scope]]:
    """Where skills are looked for, in alias order, without duplicates (`plugin_roots`, the
    marketplaces' cache folders, come after the bundled root, as 0.169 numbers them)."""
    cwd = cwd.expanduser().absolute()
    project = find_git_root(cwd) or cwd
    home = home if home is not None else Path.home()
    roots: list[tuple[Path, Scope]] = [
        (project / ".codex" / "skills", "repo"),
        (codex_home / "skills", "user"),
        (home / ".agents" / "skills", "user"),
    ]
    if bundled:
        roots.append((codex_home / "skills" / ".system", "system"))
    roots.extend((root, "user") for root in plugin_roots)
    chain = [cwd, *cwd.parents]
    below_root = chain[: chain.index(project) + 1] if project in chain else [cwd]
    roots.extend((directory / ".agents" / "skills", "repo") for directory in reversed(below_root))
    unique: list[tuple[Path, Scope]] = []
    seen: set[str] = set()
    for root, scope in roots:
        key = os.path.realpath(root)
        if key not in seen:
            seen.add(key)
            unique.append((root, scope))
    return unique


def load_skills(
    codex_home: Path,
    cwd: Path,
    skills_config: Mapping[str, Any] | None = None,
    home: Path | None = None,
    plugins: Mapping[str, Any] | None = None,
) -> SkillSet:
    """Every enabled skill under the roots for `cwd`, in 0.169's listing order.

    Args:
        codex_home: CODEX_HOME.
        cwd: The session's working directory.
        skills_config: The `[skills]` table of config.toml (`bundled.enabled`, `config`).
        home: The user's home (default: `$HOME`).
        plugins: The `[plugins]` table of config.toml (installed plugins).
    """
    table = dict(skills_config or {})
    bundled = bool(dict(table.get("bundled") or {}).get("enabled", True))
    result = SkillSet()
    off_paths, off_names = _disabled(table.get("config") or [], result.problems)
    found: list[Skill] = []
    from_plugins = _plugin_skills(codex_home, plugins, result)
    plugin_roots = tuple(dict.fromkeys(root for _, root in from_plugins))
    roots = skill_roots(codex_home, cwd, home, bundled=bundled, plugin_roots=plugin_roots)
    for root, scope in roots:
        if root in plugin_roots:
            continue  # a marketplace's cache also holds plugins that are not enabled
        for path in _skill_files(root):
            skill = _read_skill(path, root, scope, result)
            if skill is None:
                continue
            if str(path) in off_paths or skill.name in off_names:
                result.disabled.append(skill)
            else:
                found.append(skill)
    for skill, _ in from_plugins:
        if str(skill.path) in off_paths or skill.name in off_names:
            result.disabled.append(skill)
        else:
            found.append(skill)
    found.sort(key=lambda s: (SCOPE_ORDER[s.scope], s.name, str(s.path)))
    result.skills = found
    used = {s.root for s in found}
    result.roots = [root for root, _ in roots if root in used]
    return result


def _plugin_skills(
    codex_home: Path, plugins: Mapping[str, Any] | None, result: SkillSet
) -> list[tuple[Skill, Path]]:
    """The skills of installed, enabled plugins, named `<plugin>:<skill>`."""
    if not plugins:
        return []
    from codex_core.plugins.discovery import installed_plugins
    from codex_core.plugins.store import cache_root

    installed, _ = installed_plugins(codex_home, plugins)  # unusable ones: silent, as 0.169
    out: list[tuple[Skill, Path]] = []
    for plugin in installed:
        folder = plugin.manifest.skills
        if folder is None:
            continue
        root = cache_root(codex_home, plugin.marketplace)
        for path in _skill_files(folder):
            skill = _read_skill(path, root, "user", result)
            if skill is not None:
                named = f"{plugin.name}:{skill.name}"
                out.append((replace(skill, name=named, plugin_id=plugin.plugin_id), root))
    return out


def _disabled(entries: Any, problems: list[str]) -> tuple[set[str], set[str]]:
    """The paths and names `[[skills.config]]` entries with `enabled = false` turn off."""
    paths: set[str] = set()
    names: set[str] = set()
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, Mapping):
            continue
        path, name = entry.get("path"), entry.get("name")
        if path is None and name is None:
            problems.append("ignoring skills.config entry without a path or name selector")
        elif path is not None and name is not None:
            problems.append("ignoring skills.config entry with both path and name selectors")
        elif entry.get("enabled", True) is False:
            if path is not None:
                paths.add(str(Path(str(path)).expanduser().absolute()))
            else:
                names.add(str(name))
    return paths, names


def _skill_files(root: Path, depth: int = 0) -> Iterator[Path]:
    """Each `SKILL.md` under `root`: a folder holding one is a skill; hidden folders are not
    searched (the bundled `.system` folder is a root of its own)."""
    if depth > MAX_SCAN_DEPTH:
        return
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            if not entry.is_dir():
                continue
        except OSError:
            continue
        candidate = Path(entry.path) / SKILL_FILE
        if candidate.is_file():
            yield candidate
        else:
            yield from _skill_files(Path(entry.path), depth + 1)


def _read_skill(path: Path, root: Path, scope: Scope, result: SkillSet) -> Skill | None:
    try:
        values = parse_frontmatter(path.read_text("utf-8", errors="replace"))
    except FrontmatterError as err:
        return _failed(result, path, str(err))
    except OSError as err:
        return _failed(result, path, str(err.strerror or err))
    description = values.get("description")
    if description is None:
        return _failed(result, path, "missing field `description`")
    description = " ".join(description.split())
    if len(description) > MAX_DESCRIPTION_CHARS:
        description = description[: MAX_DESCRIPTION_CHARS - 3] + "..."
    name = " ".join(values.get("name", "").split()) or path.parent.name
    return Skill(
        name=name,
        description=description,
        path=path,
        root=root,
        scope=scope,
        implicit=_implicit(path.parent / "agents" / "openai.yaml"),
    )


_NOT_IMPLICIT = re.compile(
    r"^policy:[ \t]*\n(?:[ \t]+.*\n)*?[ \t]+allow_implicit_invocation:[ \t]*false\b", re.M
)


def _implicit(metadata: Path) -> bool:
    """Whether a skill's `agents/openai.yaml` lets the model be told about it unasked."""
    try:
        text = metadata.read_text("utf-8", errors="replace")
    except OSError:
        return True
    return not _NOT_IMPLICIT.search(text + "\n")


def _failed(result: SkillSet, path: Path, reason: str) -> Skill | None:
    """Note why `path` is no skill; None, for `_read_skill` to return."""
    result.errors.append((path, reason))
    result.problems.append(f"failed to load skill {path}: {reason}")
    return None
