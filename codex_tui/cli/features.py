"""`codex features list|enable|disable`: the feature flags, as Codex 0.169 lists and saves them.

`list` prints the features this codex honours in 0.169's columns with their state after
config.toml, `-c features.NAME=…`, `--enable` and `--disable`. `enable NAME` writes
`[features] NAME = true`; `disable NAME` writes `false`, or removes the key when the
feature is off by default. Any 0.169 feature name is accepted; others exit 1.
"""

from __future__ import annotations

import argparse
import sys

from codex_tui.cli.args import CliParser, add_config_flags
from codex_tui.cli.config_flags import ConfigFlagError, config_pairs


def _config_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-c",
        "--config",
        action="append",
        default=[],
        metavar="key=value",
        help="override a config value; dotted keys, TOML values (repeatable)",
    )
    add_config_flags(parser, strict=False)


def build_parser() -> argparse.ArgumentParser:
    """`codex features [OPTIONS] list|enable FEATURE|disable FEATURE`."""
    parser = CliParser(prog="codex features", description="Inspect feature flags.")
    _config_options(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    listing = commands.add_parser(
        "list", help="list known features with their stage and effective state"
    )
    _config_options(listing)
    for verb in ("enable", "disable"):
        sub = commands.add_parser(verb, help=f"{verb} a feature in config.toml")
        _config_options(sub)
        sub.add_argument("feature", metavar="FEATURE", help="feature name (e.g. shell_tool)")
    return parser


def _merge(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Options before and after the subcommand word together (argparse keeps only the
    subparser's defaults otherwise)."""
    ns = parser.parse_args(argv)
    words = [word for word in argv if word in ("list", "enable", "disable")]
    head = argv[: argv.index(words[0])] if words else []
    if head:
        options = CliParser(prog="codex features")
        _config_options(options)
        before = options.parse_known_args(head)[0]
        for name in ("config", "enable", "disable"):
            setattr(ns, name, [*getattr(before, name), *getattr(ns, name)])
    return ns


def main(argv: list[str]) -> int:
    """Entry for `codex features` (argv after `features`)."""
    if "--strict-config" in argv:
        print("Error: `--strict-config` is not supported for `codex features`", file=sys.stderr)
        return 1
    ns = _merge(build_parser(), argv)  # `--help` and usage errors leave here, before the core
    from codex_core.config import ConfigError, ConfigOverrides, load_config
    from codex_core.config.edit import set_feature
    from codex_core.features import HONOURED, UnknownFeatureError, check_name, list_lines

    try:
        pairs = config_pairs(ns)
        if ns.command == "list":
            config = load_config(ConfigOverrides(), pairs)
            for line in list_lines(config.features):
                print(line)
            return 0
        feature = check_name(ns.feature)
        config = load_config(ConfigOverrides(), ns.config)
        enable = ns.command == "enable"
        set_feature(
            config.codex_home,
            feature.name,
            True if enable else (False if feature.default else None),
        )
    except ConfigFlagError as err:
        print(err, file=sys.stderr)
        return 1
    except UnknownFeatureError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    except ConfigError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    print(f"{'Enabled' if enable else 'Disabled'} feature `{feature.name}` in config.toml.")
    if enable and feature.stage == "under development":
        print(
            f"warning: `{feature.name}` is still under development in the Codex CLI; set "
            f"`suppress_unstable_features_warning = true` in {config.codex_home / 'config.toml'} "
            "to stop this warning.",
            file=sys.stderr,
        )
    if feature.name not in HONOURED:
        print(
            f"note: this codex does not implement `{feature.name}`; the setting is kept for "
            "the Codex CLI.",
            file=sys.stderr,
        )
    return 0
