"""`codex plugin add|list|remove` and `codex plugin marketplace add|list|remove`, with the
messages, JSON and exit codes of Codex CLI 0.169 (`codex_core.plugins` does the work)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from codex_core.config.errors import ConfigError
from codex_core.config.overrides import apply_override, parse_cli_overrides
from codex_core.frontend.home import CodexHomeError, find_codex_home
from codex_core.plugins.config_edit import read_config
from codex_core.plugins.names import PluginError


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Usage(f"{self.prog}: {message} (see `{self.prog} --help`)")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-c", "--config", action="append", default=[], metavar="key=value")
    parser.add_argument("--enable", action="append", default=[], metavar="FEATURE")
    parser.add_argument("--disable", action="append", default=[], metavar="FEATURE")


def build_parser() -> argparse.ArgumentParser:
    """`codex plugin <add|list|remove|marketplace>`."""
    parser = _Parser(prog="codex plugin", description="Manage Codex plugins.")
    _common(parser)
    sub = parser.add_subparsers(dest="action", required=True, parser_class=_Parser)
    add = sub.add_parser("add", help="install a plugin from a configured marketplace")
    remove = sub.add_parser("remove", help="uninstall a plugin and remove its local cache")
    for command in (add, remove):
        _common(command)
        command.add_argument("plugin", metavar="PLUGIN[@MARKETPLACE]")
        command.add_argument("-m", "--marketplace", metavar="MARKETPLACE")
        command.add_argument("--json", action="store_true", help="print JSON")
    listing = sub.add_parser("list", help="list plugins of the configured marketplaces")
    _common(listing)
    listing.add_argument("-m", "--marketplace", metavar="MARKETPLACE")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.add_argument("--available", action="store_true", help="JSON: add uninstalled ones")
    market = sub.add_parser("marketplace", help="add, list, or remove plugin marketplaces")
    _common(market)
    msub = market.add_subparsers(dest="market_action", required=True, parser_class=_Parser)
    madd = msub.add_parser("add", help="add a local or git marketplace")
    _common(madd)
    madd.add_argument("source", metavar="SOURCE", help="a local path, owner/repo[@ref] or git URL")
    madd.add_argument("--ref", help="git ref to check out")
    madd.add_argument("--json", action="store_true", help="print JSON")
    mlist = msub.add_parser("list", help="list marketplaces and their roots")
    _common(mlist)
    mlist.add_argument("--json", action="store_true", help="print JSON")
    mupgrade = msub.add_parser("upgrade", help="refresh configured git marketplaces")
    _common(mupgrade)
    mupgrade.add_argument("name", metavar="MARKETPLACE_NAME", nargs="?")
    mupgrade.add_argument("--json", action="store_true", help="print JSON")
    mremove = msub.add_parser("remove", help="remove a configured marketplace by name")
    _common(mremove)
    mremove.add_argument("name", metavar="MARKETPLACE_NAME")
    mremove.add_argument("--json", action="store_true", help="print JSON")
    return parser


def main(argv: Sequence[str]) -> int:
    """Run `codex plugin ...`; returns the exit code."""
    try:
        args = build_parser().parse_args(list(argv))
        try:
            home = find_codex_home()
        except CodexHomeError as err:
            raise ConfigError(str(err)) from None
        tables = _tables(home, args.config)
        if args.action == "marketplace":
            return _marketplace(home, tables, args)
        return _plugin(home, tables, args)
    except _Usage as err:
        print(str(err), file=sys.stderr)
        return 2
    except (ConfigError, PluginError) as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1


def _tables(home: Path, overrides: list[str]) -> dict[str, dict[str, Any]]:
    _, data = read_config(home)
    for key, value in parse_cli_overrides(overrides):
        apply_override(data, key, value)
    out: dict[str, dict[str, Any]] = {}
    for name in ("marketplaces", "plugins"):
        table = data.get(name) or {}
        if not isinstance(table, dict):
            raise ConfigError(f"{name} must be a table; fix config.toml")
        out[name] = table
    return out


def _print_json(value: Any) -> None:
    print(json.dumps(value, indent=2))


def _table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


def _marketplace(home: Path, tables: dict[str, dict[str, Any]], args: argparse.Namespace) -> int:
    from codex_core.plugins import marketplace

    markets = tables["marketplaces"]
    if args.market_action == "add":
        entry, already = marketplace.add(home, markets, args.source, args.ref)
        if args.json:
            _print_json(
                {
                    "marketplaceName": entry.name,
                    "installedRoot": str(entry.root),
                    "alreadyAdded": already,
                }
            )
        elif already:
            print(f"Marketplace `{entry.name}` is already added from {entry.source}.")
            print(f"Installed marketplace root: {entry.root}")
        else:
            print(f"Added marketplace `{entry.name}` from {entry.source}.")
            print(f"Installed marketplace root: {entry.root}")
        return 0
    if args.market_action == "upgrade":
        return _upgrade(home, markets, args)
    if args.market_action == "remove":
        entry = marketplace.remove(home, markets, args.name)
        removed = str(entry.root) if entry.source_type == "git" else None
        if args.json:
            _print_json({"marketplaceName": entry.name, "installedRoot": removed})
        else:
            print(f"Removed marketplace `{entry.name}`.")
            if removed:
                print(f"Removed installed marketplace root: {removed}")
        return 0
    found = marketplace.configured(home, markets)
    if args.json:
        _print_json(
            {
                "marketplaces": [
                    {
                        "name": m.name,
                        "root": str(m.root),
                        "marketplaceSource": {"sourceType": m.source_type, "source": m.source},
                    }
                    for m in found
                ]
            }
        )
    elif not found:
        print("No plugin marketplaces in scope.")
    else:
        _table(["MARKETPLACE", "ROOT"], [[m.name, str(m.root)] for m in found])
    return 0


def _upgrade(home: Path, markets: dict[str, Any], args: argparse.Namespace) -> int:
    from codex_core.plugins import marketplace

    selected, changed, errors = marketplace.upgrade(home, markets, args.name)
    if args.json:
        _print_json(
            {
                "selectedMarketplaces": selected,
                "upgradedRoots": [str(root) for root in changed],
                "errors": [{"marketplaceName": n, "message": m} for n, m in errors],
            }
        )
    elif not selected:
        print("No configured Git marketplaces to upgrade.")
    elif changed:
        print(f"Upgraded {len(changed)} marketplace(s).")
        for root in changed:
            print(f"Installed marketplace root: {root}")
    elif not errors:
        print("All configured Git marketplaces are already up to date.")
    for name, message in errors:
        print(f"Error: marketplace `{name}`: {message}", file=sys.stderr)
    return 1 if errors else 0


def _plugin(home: Path, tables: dict[str, dict[str, Any]], args: argparse.Namespace) -> int:
    from codex_core.plugins import install
    from codex_core.plugins.names import parse_selector

    if args.action == "list":
        return _list(home, tables, args)
    plugin, market = parse_selector(args.plugin, args.marketplace)
    if args.action == "add":
        done = install.install(home, tables["marketplaces"], plugin, market)
        if args.json:
            _print_json(
                {
                    "pluginId": done.plugin_id,
                    "name": done.name,
                    "marketplaceName": done.marketplace,
                    "version": done.version,
                    "installedPath": str(done.path),
                    "authPolicy": "ON_INSTALL",
                }
            )
        else:
            print(f"Added plugin `{done.name}` from marketplace `{done.marketplace}`.")
            print(f"Installed plugin root: {done.path}")
        return 0
    ident = install.uninstall(home, plugin, market)
    if args.json:
        _print_json({"pluginId": ident, "name": plugin, "marketplaceName": market})
    else:
        print(f"Removed plugin `{plugin}` from marketplace `{market}`.")
    return 0


def _list(home: Path, tables: dict[str, dict[str, Any]], args: argparse.Namespace) -> int:
    from codex_core.plugins import marketplace
    from codex_core.plugins.manifest import read_manifest
    from codex_core.plugins.store import plugin_cache

    loaded, errors = marketplace.load_all(home, tables["marketplaces"])
    for line in errors:
        print(f"warning: {line}", file=sys.stderr)
    if args.marketplace:
        loaded = [(c, m) for c, m in loaded if m.name == args.marketplace]
    installed: list[dict[str, Any]] = []
    available: list[dict[str, Any]] = []
    sections: list[tuple[str, str, list[list[str]]]] = []
    for conf, market in loaded:
        rows: list[list[str]] = []
        for entry in market.plugins:
            ident = f"{entry.name}@{market.name}"
            state = tables["plugins"].get(ident)
            folder = plugin_cache(home, market.name, entry.name)
            versions = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
            is_installed = isinstance(state, dict) and bool(versions)
            enabled = (
                isinstance(state, dict) and is_installed and state.get("enabled", True) is True
            )
            try:
                version: str | None = read_manifest(entry.source).version
            except PluginError:
                version = None
            shown = versions[-1] if is_installed else ""
            status = (
                ("installed, enabled" if enabled else "installed, disabled")
                if is_installed
                else "not installed"
            )
            rows.append([ident, status, shown, str(entry.source)])
            record = {
                "pluginId": ident,
                "name": entry.name,
                "marketplaceName": market.name,
                "version": versions[-1] if is_installed else version,
                "installed": is_installed,
                "enabled": enabled,
                "source": {"source": "local", "path": str(entry.source)},
                "marketplaceSource": {"sourceType": conf.source_type, "source": conf.source},
                "installPolicy": "AVAILABLE",
                "authPolicy": "ON_INSTALL",
            }
            (installed if is_installed else available).append(record)
        if rows:
            sections.append((market.name, str(market.file), rows))
    if args.json:
        _print_json({"installed": installed, "available": available if args.available else []})
        return 0
    if not sections:
        print("No marketplace plugins found.")
        return 0
    for index, (name, file, rows) in enumerate(sections):
        if index:
            print()
        print(f"Marketplace `{name}`")
        print(file)
        print()
        _table(["PLUGIN", "STATUS", "VERSION", "SOURCE"], rows)
    return 0
