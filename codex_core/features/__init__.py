"""Feature flags: Codex 0.169's names, stages and defaults, and the few this codex honours.

`[features]` in config.toml, `-c features.NAME=…`, `--enable NAME` and `--disable NAME` set
them. Every 0.169 name is accepted, so a config.toml shared with the Codex CLI loads; a
name 0.169 does not know is an unknown key (a warning, or an error under --strict-config),
and on the command line `Unknown feature flag: NAME`, as in 0.169. Only the features in
`HONOURED` change what this codex does; setting another one away from its default is
named in a warning.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal

Stage = Literal["stable", "experimental", "under development", "deprecated", "removed"]
_STAGES: dict[str, Stage] = {
    "S": "stable",
    "E": "experimental",
    "U": "under development",
    "D": "deprecated",
    "R": "removed",
}

HONOURED: dict[str, tuple[str, ...]] = {
    "shell_tool": ("exec_command", "write_stdin", "shell", "container.exec", "local_shell"),
    "view_image": ("view_image",),
    "unified_exec": (),  # turning it off changes no tool in 0.169 either
}
"""Features with an effect here → the tools they remove when off."""

ALWAYS_ON = frozenset({"unified_exec"})
"""Features 0.169 reports on whatever the settings say (`features list` after
`--disable unified_exec` still shows `true`)."""


@dataclass(frozen=True)
class Feature:
    """One feature flag as Codex 0.169 lists it."""

    name: str
    stage: Stage
    default: bool


class UnknownFeatureError(LookupError):
    """A feature name Codex 0.169 does not know; `str()` is 0.169's message."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Unknown feature flag: {name}")
        self.name = name


@cache
def catalog() -> dict[str, Feature]:
    """Every Codex 0.169 feature by name."""
    from codex_core.features.known_0169 import CATALOG_0169

    features: dict[str, Feature] = {}
    for row in CATALOG_0169.strip().splitlines():
        name, stage, default = row.split()
        features[name] = Feature(name, _STAGES[stage], default == "1")
    return features


def check_name(name: str) -> Feature:
    """The feature called `name`.

    Raises:
        UnknownFeatureError: Codex 0.169 has no such feature.
    """
    feature = catalog().get(name)
    if feature is None:
        raise UnknownFeatureError(name)
    return feature


def effective(settings: Mapping[str, bool]) -> dict[str, bool]:
    """Each honoured feature's state under `settings` (the `[features]` table)."""
    table = catalog()
    return {
        name: name in ALWAYS_ON or bool(settings.get(name, table[name].default))
        for name in sorted(HONOURED)
    }


def disabled_tools(settings: Mapping[str, bool]) -> frozenset[str]:
    """The tools the features turned off in `settings` remove from every request."""
    return frozenset(
        tool for name, on in effective(settings).items() if not on for tool in HONOURED[name]
    )


def ignored_settings(settings: Mapping[str, bool]) -> list[str]:
    """Known features set away from their default that this codex does not honour."""
    table = catalog()
    return [
        name
        for name, value in settings.items()
        if name in table and name not in HONOURED and value != table[name].default
    ]


def list_lines(settings: Mapping[str, bool]) -> list[str]:
    """`codex features list` for the honoured features: `name stage true|false` in the
    columns 0.169 prints its whole list in, so each line is the one 0.169 prints."""
    table = catalog()
    name_width = max(len(name) for name in table) + 2
    stage_width = max(len(feature.stage) for feature in table.values()) + 2
    return [
        f"{name.ljust(name_width)}{table[name].stage.ljust(stage_width)}{str(on).lower()}"
        for name, on in effective(settings).items()
    ]
