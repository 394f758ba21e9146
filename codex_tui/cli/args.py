"""What every subcommand's parser shares: the one-line usage error and the common flags.

A leaf module (the subcommands import it, it imports none of them), so the dispatcher in
`codex_tui.cli.main` and the subcommands never import each other in a circle.
"""

from __future__ import annotations

import argparse
import functools
import shutil
from typing import Any, NoReturn


class UsageError(Exception):
    """A bad command line; the message is one line."""


class CommandFailed(Exception):
    """The command cannot go on (the message is one line); `codex` prints `Error: …` and
    exits 1, as Codex 0.169 does for such failures."""


@functools.cache
def _help_width() -> int:
    return shutil.get_terminal_size().columns - 2  # what argparse computes, once


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with the terminal's width looked up once per process.

    argparse makes a formatter for every `add_argument` (to check its metavar), and each
    asked the terminal for its size: ~1 ms per parser, and `codex exec` builds two before
    its first request.
    """

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        super().__init__(prog, indent_increment, max_help_position, width or _help_width())


class RawDescriptionFormatter(argparse.RawDescriptionHelpFormatter, _HelpFormatter):
    """`argparse.RawDescriptionHelpFormatter`, with the width looked up once."""


class CliParser(argparse.ArgumentParser):
    """An argument parser whose errors are `UsageError`s naming `--help`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see `{self.prog} --help`)")


def add_common_flags(parser: argparse.ArgumentParser) -> None:
    """Flags shared by the TUI and `codex exec`."""
    parser.add_argument("-m", "--model", help="model to use (overrides `model` in config.toml)")
    parser.add_argument(
        "-c",
        "--config",
        action="append",
        default=[],
        metavar="key=value",
        help="override a config value; dotted keys, TOML values (repeatable)",
    )
    parser.add_argument("-p", "--profile", help="config profile from [profiles.<name>]")
    parser.add_argument("-C", "--cd", metavar="DIR", help="run as if started in DIR")
    parser.add_argument(
        "-s",
        "--sandbox",
        choices=["read-only", "workspace-write", "danger-full-access"],
        help="sandbox policy for model-run commands",
    )
    parser.add_argument("--oss", action="store_true", help="use a local Ollama-compatible provider")
    parser.add_argument(
        "-i",
        "--image",
        action="extend",
        nargs="+",
        default=[],
        metavar="FILE",
        help="attach images (several values, or comma-separated; repeatable)",
    )
    parser.add_argument(
        "--full-auto",
        action="store_true",
        help="low-friction mode: workspace-write sandbox, ask only when needed",
    )
    parser.add_argument(
        "--dangerously-bypass-approvals-and-sandbox",
        "--yolo",
        dest="yolo",
        action="store_true",
        help="run every command without sandbox or approval (only in an isolated environment)",
    )
    parser.add_argument(
        "--approve-for-me",
        action="store_true",
        help="workspace-write sandbox, and a reviewer model call answers approval requests "
        "in your place (approvals_reviewer = auto_review); a bad or missing answer denies",
    )
    parser.add_argument(
        "--dangerously-bypass-hook-trust",
        dest="bypass_hook_trust",
        action="store_true",
        help="run enabled hooks without recorded trust, for this run only (DANGEROUS: only "
        "for automation that vets hook sources itself)",
    )
    add_config_flags(parser)
    parser.add_argument(
        "--worktree",
        action="store_true",
        help="run the session in a new managed git worktree of HEAD "
        "(under $CODEX_HOME/worktrees; uncommitted changes stay behind)",
    )
    parser.add_argument("--debug", action="store_true", help="print tracebacks and debug logs")


def add_config_flags(parser: argparse.ArgumentParser, *, strict: bool = True) -> None:
    """`--enable`/`--disable FEATURE` (= `-c features.NAME=true|false`) and `--strict-config`."""
    parser.add_argument(
        "--enable",
        action="append",
        default=[],
        metavar="FEATURE",
        help="enable a feature (repeatable); same as -c features.FEATURE=true",
    )
    parser.add_argument(
        "--disable",
        action="append",
        default=[],
        metavar="FEATURE",
        help="disable a feature (repeatable); same as -c features.FEATURE=false",
    )
    if strict:
        parser.add_argument(
            "--strict-config",
            action="store_true",
            help="stop with an error when config.toml has a key this codex does not know",
        )


def add_no_alt_screen(parser: argparse.ArgumentParser) -> None:
    """`--no-alt-screen`: the TUI runs inline (same as `tui.alternate_screen = "never"`)."""
    parser.add_argument(
        "--no-alt-screen",
        action="store_true",
        help="run the TUI inline, so the conversation stays in the terminal's scrollback",
    )


def add_remote_flags(parser: argparse.ArgumentParser) -> None:
    """`--remote ADDR` and `--remote-auth-token-env VAR`: the TUI attached to an app-server."""
    parser.add_argument(
        "--remote",
        metavar="ADDR",
        help="attach to a running `codex app-server` (ws://host:port, wss://host:port, "
        "unix:// or unix://PATH); the session runs there",
    )
    parser.add_argument(
        "--remote-auth-token-env",
        metavar="ENV_VAR",
        help="send the value of ENV_VAR as the bearer token to the --remote server",
    )
