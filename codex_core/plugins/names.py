"""Names that become paths: marketplace and plugin names, versions, `NAME@MARKETPLACE`."""

from __future__ import annotations

import re

_NAME = re.compile(r"[A-Za-z0-9_-]+")
_VERSION = re.compile(r"[A-Za-z0-9_.+-]+")
LOCAL_VERSION = "local"
"""The cache folder of a plugin whose plugin.json has no version (as 0.169 names it)."""


class PluginError(Exception):
    """A plugin command or a plugin file went wrong; the message is one line for the user."""


def check_name(name: object, what: str) -> str:
    """`name` if it is a safe marketplace or plugin name, else PluginError."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise PluginError(
            f"invalid {what} name: only ASCII letters, digits, `_`, and `-` are allowed"
        )
    return name


def check_version(version: object) -> str:
    """A plugin.json `version` usable as a folder name (absent: `local`)."""
    if version is None:
        return LOCAL_VERSION
    if not isinstance(version, str):
        raise PluginError("invalid plugin version in plugin.json: expected string")
    if not version.strip():
        raise PluginError("invalid plugin version in plugin.json: must not be blank")
    if not _VERSION.fullmatch(version) or set(version) == {"."}:
        raise PluginError(
            f"invalid plugin version in plugin.json: {version!r} "
            "(only ASCII letters, digits, `.`, `_`, `+`, and `-`)"
        )
    return version


def parse_selector(selector: str, marketplace: str | None) -> tuple[str, str]:
    """(plugin, marketplace) from `PLUGIN@MARKETPLACE`, or `PLUGIN` with `--marketplace`."""
    plugin, at, named = selector.partition("@")
    if at:
        if marketplace is not None and marketplace != named:
            raise PluginError(
                f"`{selector}` names marketplace `{named}` but --marketplace says `{marketplace}`"
            )
        marketplace = named
    if not marketplace:
        raise PluginError("plugin requires --marketplace unless passed as <plugin>@<marketplace>")
    return check_name(plugin, "plugin"), check_name(marketplace, "marketplace")


def plugin_id(plugin: str, marketplace: str) -> str:
    """`NAME@MARKETPLACE`, the key of `[plugins]` and of plugin hook trust."""
    return f"{plugin}@{marketplace}"
