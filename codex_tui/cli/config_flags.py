"""`--enable`/`--disable FEATURE` and `--strict-config`, checked before anything runs.

Every command that loads the config takes them (`add_common_flags`); a feature name Codex
0.169 does not know stops the command with 0.169's `Unknown feature flag`, and under
`--strict-config` so does the first unknown config key.
"""

from __future__ import annotations

import argparse
from pathlib import Path


class ConfigFlagError(Exception):
    """What to print on stderr, as it is (one line, or 0.169's quoted report); exit 1."""


def feature_pairs(ns: argparse.Namespace) -> list[str]:
    """`features.NAME=true|false` for each `--enable`/`--disable`, in order.

    Raises:
        ConfigFlagError: A name Codex 0.169 does not know.
    """
    from codex_core.features import UnknownFeatureError, check_name

    pairs: list[str] = []
    for flag, value in (("enable", "true"), ("disable", "false")):
        for name in getattr(ns, flag, None) or []:
            try:
                check_name(name)
            except UnknownFeatureError as err:
                raise ConfigFlagError(f"Error: {err}") from None
            pairs.append(f"features.{name}={value}")
    return pairs


def config_pairs(ns: argparse.Namespace) -> list[str]:
    """The `-c` pairs of a command line with its `--enable`/`--disable` flags after them.

    Raises:
        ConfigFlagError: An unknown feature name, or an unknown key under --strict-config.
    """
    pairs = [*ns.config, *feature_pairs(ns)]
    if getattr(ns, "strict_config", False):
        from codex_core.config import find_codex_home
        from codex_core.config.strict import strict_problem

        problem = strict_problem(find_codex_home(), pairs)
        if problem is not None:
            raise ConfigFlagError(problem)
    return pairs


def check_config_flags(ns: argparse.Namespace) -> Path:
    """CODEX_HOME, once the feature flags and --strict-config have passed.

    Raises:
        ConfigFlagError: As `config_pairs`, or CODEX_HOME is set but is not a directory.
    """
    from codex_core.frontend.home import CodexHomeError, find_codex_home

    config_pairs(ns)
    try:
        return find_codex_home()
    except CodexHomeError as err:
        raise ConfigFlagError(f"Error: {err}") from None
