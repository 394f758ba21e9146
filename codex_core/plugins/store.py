"""Where plugins live under CODEX_HOME, and the only code that writes or deletes there.

`plugins/cache/<marketplace>/<plugin>/<version>` holds installed copies, `plugins/data/
<plugin>-<marketplace>` is a plugin's own data folder (its hooks get it as PLUGIN_DATA),
`plugins/pins/<plugin>@<marketplace>` the content hash recorded at install (plugin hooks run
only while the copy still matches it), `.tmp/marketplaces/<name>` git marketplaces' clones.
Every path is built from checked names, and before anything is written or removed the path
must lie inside CODEX_HOME's plugin folders with no symlink on the way.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from codex_core.plugins.names import PluginError


def plugins_dir(codex_home: Path) -> Path:
    return codex_home / "plugins"


def cache_root(codex_home: Path, marketplace: str) -> Path:
    """The folder of one marketplace's installed plugins (a skills root, as in 0.169)."""
    return plugins_dir(codex_home) / "cache" / marketplace


def plugin_cache(codex_home: Path, marketplace: str, plugin: str) -> Path:
    return cache_root(codex_home, marketplace) / plugin


def data_dir(codex_home: Path, marketplace: str, plugin: str) -> Path:
    return plugins_dir(codex_home) / "data" / f"{plugin}-{marketplace}"


def pin_file(codex_home: Path, plugin_id: str) -> Path:
    return plugins_dir(codex_home) / "pins" / plugin_id


def git_marketplaces(codex_home: Path) -> Path:
    return codex_home / ".tmp" / "marketplaces"


def guard(path: Path, base: Path) -> Path:
    """`path` if it is `base` or below it with no symlink from `base` down; else PluginError."""
    relative = os.path.relpath(os.path.normpath(path), os.path.normpath(base))
    if relative.startswith(os.pardir) or os.path.isabs(relative):
        raise PluginError(f"refusing to write {path}: it is outside {base}")
    current = Path(os.path.normpath(base))
    for part in () if relative == os.curdir else Path(relative).parts:
        current = current / part
        if current.is_symlink():
            raise PluginError(f"refusing to write through the symlink {current}")
    return path


def remove_tree(path: Path, base: Path) -> bool:
    """Delete `path` (inside `base`, see `guard`); False if there was nothing."""
    guard(path, base)
    if not path.exists():
        return False
    try:
        shutil.rmtree(path)
    except OSError as err:
        raise PluginError(f"cannot remove {path}: {err.strerror}") from None
    return True


def prune_empty(path: Path, stop: Path) -> None:
    """Remove `path` and its parents up to (not including) `stop` while they are empty."""
    while path != stop and path.is_relative_to(stop):
        try:
            path.rmdir()
        except OSError:
            return
        path = path.parent


def copy_plugin(source: Path, dest: Path, codex_home: Path) -> None:
    """Copy the plugin folder `source` to `dest` (replacing it), files and folders only.

    Symlinks are followed only when they stay inside `source`; one that leaves it is an error.
    """
    base = plugins_dir(codex_home)
    guard(dest, base)
    base.mkdir(parents=True, exist_ok=True)
    guard(dest, base)  # `plugins` itself must not be a link
    staging = Path(tempfile.mkdtemp(prefix=".install-", dir=base))
    try:
        _copy_into(source, staging, Path(os.path.realpath(source)))
        guard(dest.parent, base).mkdir(parents=True, exist_ok=True)
        guard(dest, base)
        if dest.exists():
            shutil.rmtree(dest)
        os.replace(staging, dest)
    except OSError as err:
        raise PluginError(f"cannot install into {dest}: {err.strerror or err}") from None
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def _copy_into(source: Path, target: Path, real_root: Path) -> None:
    for entry in sorted(os.scandir(source), key=lambda e: e.name):
        src = Path(entry.path)
        if entry.is_symlink():
            real = Path(os.path.realpath(src))
            if real != real_root and not real.is_relative_to(real_root):
                raise PluginError(f"plugin file {src} links outside the plugin; not installed")
        if src.is_dir():
            (target / entry.name).mkdir()
            _copy_into(src, target / entry.name, real_root)
        elif src.is_file():
            shutil.copyfile(src, target / entry.name)
            shutil.copymode(src, target / entry.name)


def tree_hash(root: Path) -> str:
    """`sha256:<hex>` over a plugin copy's folders, file contents and links."""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        rel = os.path.relpath(folder, root)
        digest.update(f"d {rel}\n".encode())
        for name in sorted(files):
            path = os.path.join(folder, name)
            if os.path.islink(path):
                digest.update(f"l {rel}/{name} {os.readlink(path)}\n".encode())
                continue
            with open(path, "rb") as handle:
                content = hashlib.sha256(handle.read()).hexdigest()
            mode = "x" if os.access(path, os.X_OK) else "-"
            digest.update(f"f {rel}/{name} {mode} {content}\n".encode())
    return "sha256:" + digest.hexdigest()


def write_pin(codex_home: Path, plugin_id: str, value: str) -> None:
    path = pin_file(codex_home, plugin_id)
    base = plugins_dir(codex_home)
    guard(path, base).parent.mkdir(parents=True, exist_ok=True)
    guard(path, base)
    path.write_text(value + "\n")


def read_pin(codex_home: Path, plugin_id: str) -> str | None:
    try:
        return pin_file(codex_home, plugin_id).read_text().strip() or None
    except OSError:
        return None
