"""`codex mcp add/remove`: edit `[mcp_servers.*]` in config.toml keeping comments and layout."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import tomlkit
from tomlkit.items import Table

from codex_core.config.loader import CONFIG_TOML


def _load(codex_home: Path) -> tomlkit.TOMLDocument:
    path = codex_home / CONFIG_TOML
    text = path.read_text("utf-8") if path.exists() else ""
    return tomlkit.parse(text)


def _servers(doc: tomlkit.TOMLDocument, create: bool) -> Table | None:
    table = doc.get("mcp_servers")
    if table is None and create:
        table = tomlkit.table(is_super_table=True)
        doc["mcp_servers"] = table
    return table if isinstance(table, Table) else None


def add_stdio_server(
    codex_home: Path, name: str, command: list[str], env: dict[str, str] | None
) -> None:
    """Write `[mcp_servers.<name>]` with `command`, `args` and an `env` table (replacing any)."""
    entry = tomlkit.table()
    entry["command"] = command[0]
    entry["args"] = command[1:]
    if env:
        env_table = tomlkit.table()
        for key, value in env.items():
            env_table[key] = value
        entry["env"] = env_table
        env_table.add(tomlkit.nl())
    else:
        entry.add(tomlkit.nl())
    _put(codex_home, name, entry)


def add_http_server(
    codex_home: Path, name: str, url: str, bearer_token_env_var: str | None
) -> None:
    """Write `[mcp_servers.<name>]` with `url` (and `bearer_token_env_var`), replacing any."""
    entry = tomlkit.table()
    entry["url"] = url
    if bearer_token_env_var:
        entry["bearer_token_env_var"] = bearer_token_env_var
    entry.add(tomlkit.nl())
    _put(codex_home, name, entry)


def _put(codex_home: Path, name: str, entry: Table) -> None:
    doc = _load(codex_home)
    servers = _servers(doc, create=True)
    assert servers is not None
    if name in servers:
        servers[name] = entry
    else:
        servers.append(name, entry)
    _write(codex_home / CONFIG_TOML, doc.as_string())


def remove_server(codex_home: Path, name: str) -> bool:
    """Delete `[mcp_servers.<name>]`; False when there was none."""
    doc = _load(codex_home)
    servers = _servers(doc, create=False)
    if servers is None or name not in servers:
        return False
    del servers[name]
    if not servers:
        del doc["mcp_servers"]
    _write(codex_home / CONFIG_TOML, doc.as_string())
    return True


def _write(path: Path, text: str) -> None:
    """Atomic replace that keeps the file's mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".config.toml.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
