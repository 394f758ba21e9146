"""Marketplace sources: `[marketplaces.<name>]` in config.toml (a local folder, or a git
repository cloned with the git CLI into CODEX_HOME/.tmp/marketplaces/<name>), and the personal
marketplace `~/.agents/plugins/marketplace.json`. A project's own files are never a source."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codex_core.plugins import config_edit, store
from codex_core.plugins.manifest import MARKETPLACE_FILE, Marketplace, read_marketplace
from codex_core.plugins.names import PluginError, check_name

GIT_TIMEOUT_SECONDS = 300
_OWNER_REPO = re.compile(r"([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?(?:@([^@\s]+))?")
_GIT_URL = re.compile(r"(https?|ssh|git)://\S+|[A-Za-z0-9_.-]+@[A-Za-z0-9_.-]+:\S+")


@dataclass(frozen=True)
class Configured:
    """One marketplace Codex considers, where its files are and where they came from."""

    name: str
    root: Path
    source_type: str
    source: str
    ref: str | None = None


def configured(
    codex_home: Path, table: Mapping[str, Any], home: Path | None = None
) -> list[Configured]:
    """The configured marketplaces (then the personal one, if there is one), in config order."""
    found: list[Configured] = []
    for name, entry in table.items():
        if not isinstance(entry, Mapping):
            continue
        source_type, source = entry.get("source_type"), entry.get("source")
        if not isinstance(source, str):
            continue
        try:
            check_name(name, "marketplace")
        except PluginError:
            continue
        ref = entry.get("ref") if isinstance(entry.get("ref"), str) else None
        if source_type == "git":
            root = store.git_marketplaces(codex_home) / name
        elif source_type == "local":
            root = Path(source)
        else:
            continue
        found.append(Configured(name, root, str(source_type), source, ref))
    personal = (home if home is not None else Path.home()) / MARKETPLACE_FILE
    if personal.is_file():
        try:
            market = read_marketplace(personal.parents[2])
        except PluginError:
            pass
        else:
            if all(c.name != market.name for c in found):
                root = personal.parents[2]
                found.append(Configured(market.name, root, "local", str(root)))
    return found


def load_all(
    codex_home: Path, table: Mapping[str, Any], home: Path | None = None
) -> tuple[list[tuple[Configured, Marketplace]], list[str]]:
    """Each marketplace that reads, and one line per one that does not."""
    loaded: list[tuple[Configured, Marketplace]] = []
    errors: list[str] = []
    for entry in configured(codex_home, table, home):
        try:
            loaded.append((entry, read_marketplace(entry.root)))
        except PluginError as err:
            errors.append(f"skipping marketplace `{entry.name}`: {err}")
    return loaded, errors


class NotConfigured(PluginError):
    """No marketplace of that name is in scope."""


def find(codex_home: Path, table: Mapping[str, Any], name: str) -> Marketplace:
    """The marketplace called `name`."""
    for entry in configured(codex_home, table):
        if entry.name == name:
            return read_marketplace(entry.root)
    raise NotConfigured(f"marketplace `{name}` is not configured or installed")


def is_git_source(source: str) -> bool:
    """A git URL or `owner/repo[@ref]`; a path that exists, or starts with `.`, `/`, `~`, is local."""
    if _GIT_URL.fullmatch(source):
        return True
    if source.startswith((".", "/", "~")) or Path(source).exists():
        return False
    return bool(_OWNER_REPO.fullmatch(source))


def add(
    codex_home: Path, table: Mapping[str, Any], source: str, ref: str | None
) -> tuple[Configured, bool]:
    """Add a marketplace source; returns it and whether it was already there."""
    if source.startswith("file:"):
        raise PluginError(
            "invalid marketplace source format; expected owner/repo, a git URL, or a local "
            "marketplace path"
        )
    if is_git_source(source):
        return _add_git(codex_home, table, source, ref)
    root = Path(source).expanduser()
    if not root.exists():
        raise PluginError(
            f"failed to resolve local marketplace source path: {source}: no such file"
        )
    root = root.resolve()
    market = read_marketplace(root)
    for entry in configured(codex_home, table):
        if entry.name == market.name and entry.source_type != "local":
            raise PluginError(f"marketplace `{market.name}` is already added from {entry.source}")
        if entry.name == market.name and Path(entry.source) == root:
            return entry, True
    config_edit.add_marketplace(codex_home, market.name, "local", str(root), None)
    return Configured(market.name, root, "local", str(root)), False


def _git_url(source: str) -> tuple[str, str | None]:
    if _GIT_URL.fullmatch(source):
        return source, None
    match = _OWNER_REPO.fullmatch(source)
    assert match is not None
    return f"https://github.com/{match[1]}/{match[2]}.git", match[3]


def _add_git(
    codex_home: Path, table: Mapping[str, Any], source: str, ref: str | None
) -> tuple[Configured, bool]:
    url, inline_ref = _git_url(source)
    ref = ref or inline_ref
    base = store.git_marketplaces(codex_home)
    store.guard(base, codex_home)
    base.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=base))
    try:
        clone(url, ref, staging / "repo")
        market = read_marketplace(staging / "repo")
        for entry in configured(codex_home, table):
            if entry.name == market.name:
                if entry.source == url and entry.root.is_dir():
                    return entry, True
                raise PluginError(
                    f"marketplace `{market.name}` is already added from {entry.source}"
                )
        final = base / market.name
        store.remove_tree(final, base)
        os.replace(staging / "repo", store.guard(final, base))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    config_edit.add_marketplace(codex_home, market.name, "git", url, ref)
    return Configured(market.name, final, "git", url, ref), False


def clone(url: str, ref: str | None, dest: Path) -> None:
    """`git clone` (never prompting for credentials) within a time limit."""
    command = ["git", "clone", "--quiet"]
    if ref:
        command += ["--branch", ref]
    command += ["--", url, str(dest)]
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true"}
    try:
        done = subprocess.run(
            command,
            env=env,
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_SECONDS,
            stdin=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        raise PluginError("git is not installed; it is needed for git marketplaces") from None
    except subprocess.TimeoutExpired:
        raise PluginError(f"git clone {url} took longer than {GIT_TIMEOUT_SECONDS}s") from None
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["failed"])[-1]
        raise PluginError(f"git clone marketplace source {url}: {why}")


def remove(codex_home: Path, table: Mapping[str, Any], name: str) -> Configured:
    """Remove a configured marketplace (a git clone is deleted; installed plugins stay)."""
    for entry in configured(codex_home, table):
        if entry.name == name and name in table:
            config_edit.remove_marketplace(codex_home, name)
            if entry.source_type == "git":
                store.remove_tree(entry.root, store.git_marketplaces(codex_home))
            return entry
    raise PluginError(f"marketplace `{name}` is not configured or installed")


def _revision(repo: Path) -> str | None:
    done = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    return done.stdout.strip() or None if done.returncode == 0 else None


def upgrade(
    codex_home: Path, table: Mapping[str, Any], name: str | None
) -> tuple[list[str], list[Path], list[tuple[str, str]]]:
    """Fetch the configured git marketplaces (or the one called `name`) anew; returns the
    names selected, the roots that changed, and (name, error) for those that failed."""
    targets = [
        c for c in configured(codex_home, table) if c.source_type == "git" and c.name in table
    ]
    if name is not None:
        targets = [c for c in targets if c.name == name]
        if not targets:
            raise PluginError(f"marketplace `{name}` is not configured as a Git marketplace")
    base = store.git_marketplaces(codex_home)
    changed: list[Path] = []
    errors: list[tuple[str, str]] = []
    for entry in targets:
        try:
            store.guard(base, codex_home)
            base.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=base))
            try:
                clone(entry.source, entry.ref, staging / "repo")
                if read_marketplace(staging / "repo").name != entry.name:
                    raise PluginError(f"the repository no longer holds marketplace `{entry.name}`")
                if _revision(staging / "repo") == _revision(entry.root):
                    continue
                store.remove_tree(entry.root, base)
                os.replace(staging / "repo", store.guard(entry.root, base))
                changed.append(entry.root)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        except PluginError as err:
            errors.append((entry.name, str(err)))
    return [t.name for t in targets], changed, errors
