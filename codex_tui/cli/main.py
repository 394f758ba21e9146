"""Command-line parsing for `codex` and its subcommands; imports each frontend lazily."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Collection, Sequence
from typing import Literal

from codex_core import __version__
from codex_tui.cli.args import (
    CliParser,
    CommandFailed,
    RawDescriptionFormatter,
    UsageError,
    add_common_flags,
    add_no_alt_screen,
    add_remote_flags,
)

PASSTHROUGH = {
    "sandbox": ("codex_tui.cli.sandbox", "run commands under the codex sandbox"),
    "debug": ("codex_tui.cli.sandbox", "alias of `sandbox`"),
    "execpolicy": ("codex_tui.cli.execpolicy", "check commands against your rules"),
    "sessions": ("codex_tui.cli.sessions", "list recorded sessions"),
    "mcp": ("codex_tui.cli.mcp", "manage MCP servers in config.toml"),
    "plugin": ("codex_tui.cli.plugin", "manage plugins and plugin marketplaces"),
    "completion": ("codex_tui.cli.completion", "print a bash, zsh or fish completion script"),
    "features": ("codex_tui.cli.features", "list feature flags, enable or disable one"),
    "doctor": ("codex_tui.cli.doctor", "diagnose the installation, config, auth and provider"),
    "archive": ("codex_tui.cli.session_commands:archive_main", "archive a saved session"),
    "unarchive": ("codex_tui.cli.session_commands:unarchive_main", "unarchive a saved session"),
    "delete": ("codex_tui.cli.session_commands:delete_main", "delete a saved session"),
    "queue": ("codex_core.servers.app_server.queue_cli", "queue a message for a session"),
    "review": ("codex_tui.exec.review:review_main", "run a code review non-interactively"),
}

UNSUPPORTED = frozenset(
    {
        "agents",
        "apply",
        "a",
        "cloud",
        "exec-server",
        "migrate-nfs-db",
        "migrate-rollouts",
        "remote-control",
        "update",
    }
)
"""Codex 0.169 subcommands this codex does not have: refused by name, never sent as a prompt."""


def build_tui_parser() -> argparse.ArgumentParser:
    """`codex [OPTIONS] [PROMPT]`."""
    parser = CliParser(
        prog="codex",
        description="codex — a coding agent in your terminal.",
        epilog=commands_epilog(),
        formatter_class=RawDescriptionFormatter,
    )
    parser.add_argument("-V", "--version", action="version", version=f"codex-cli {__version__}")
    add_common_flags(parser)
    parser.add_argument(
        "-a",
        "--ask-for-approval",
        choices=["untrusted", "on-failure", "on-request", "never"],
        help="when to ask before running commands",
    )
    parser.add_argument(
        "--search", action="store_true", help="let the model search the live web (web_search)"
    )
    add_no_alt_screen(parser)
    add_remote_flags(parser)
    _add_no_daemon(parser)
    parser.add_argument("prompt", nargs="?", help="first message to send")
    return parser


def _add_no_daemon(parser: argparse.ArgumentParser) -> None:
    """0.169's `--no-daemon`. This TUI runs its session without the daemon either way
    (README, compatibility table), so the flag changes nothing here."""
    parser.add_argument(
        "--no-daemon",
        action="store_true",
        help="run without the shared background server (this codex's TUI never uses it)",
    )


def build_resume_parser() -> argparse.ArgumentParser:
    """`codex resume [--last | --all | ID] [PROMPT]`."""
    parser = CliParser(prog="codex resume", description="Resume a recorded session.")
    add_common_flags(parser)
    parser.add_argument(
        "-a", "--ask-for-approval", choices=["untrusted", "on-failure", "on-request", "never"]
    )
    parser.add_argument("--last", action="store_true", help="resume the most recent session")
    parser.add_argument("--all", action="store_true", help="show sessions of every directory")
    add_no_alt_screen(parser)
    add_remote_flags(parser)
    _add_no_daemon(parser)
    parser.add_argument("session_id", nargs="?", help="session id (or prefix) to resume")
    parser.add_argument("prompt", nargs="?", help="message to send after resuming")
    return parser


def build_fork_parser() -> argparse.ArgumentParser:
    """`codex fork [--last | --all | ID] [PROMPT]`."""
    parser = CliParser(
        prog="codex fork",
        description="Fork a recorded session into a new one and open it (a picker by default; "
        "--last forks the most recent interactive session).",
    )
    add_common_flags(parser)
    parser.add_argument(
        "-a", "--ask-for-approval", choices=["untrusted", "on-failure", "on-request", "never"]
    )
    parser.add_argument(
        "--last", action="store_true", help="fork the most recent interactive session"
    )
    parser.add_argument("--all", action="store_true", help="show sessions of every directory")
    add_no_alt_screen(parser)
    _add_no_daemon(parser)
    parser.add_argument("session_id", nargs="?", help="session id, thread name or id prefix")
    parser.add_argument("prompt", nargs="?", help="message to send in the new session")
    return parser


def main(argv: Sequence[str]) -> int:
    """Run `codex` with `argv` (without the program name); returns the exit code."""
    args = list(argv)
    debug = "--debug" in args
    try:
        return _dispatch(args)
    except UsageError as err:
        print(str(err), file=sys.stderr)
        return 2
    except CommandFailed as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # last resort: one line, traceback only with --debug
        if debug:
            raise
        print(
            f"codex: {err.__class__.__name__}: {err} (rerun with --debug for details)",
            file=sys.stderr,
        )
        return 1


SERVERS = {
    "app-server": "codex_core.servers.app_server.cli",
    "acp": "codex_core.servers.acp.cli",
}
"""Protocol servers; they take global `-c`/`--config` given before the subcommand."""


def _leading_options(args: list[str]) -> tuple[list[list[str]], list[str]]:
    """The root options before the first word that is not one (each as its argv tokens).

    `codex -m X resume` and `codex -c k=v exec …` work as in Codex CLI 0.169: options of
    the root command may come before a subcommand, which then takes the ones it knows.
    """
    if not args or not args[0].startswith("-") or args[0] in ("-", "--"):
        return [], list(args)  # `codex exec …`: no root parser to build (~5 ms of argparse)
    actions = build_tui_parser()._option_string_actions
    options: list[list[str]] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--" or not arg.startswith("-") or arg == "-":
            break
        name = arg.split("=", 1)[0] if arg.startswith("--") else arg[:2]
        action = actions.get(name)
        if action is None:
            break
        attached = "=" in arg if arg.startswith("--") else len(arg) > 2
        if action.nargs == 0 or attached or index + 1 >= len(args):
            options.append([arg])
            index += 1
        else:
            options.append([arg, args[index + 1]])
            index += 2
    return options, args[index:]


SUBCOMMANDS_WITH_ROOT_OPTIONS = (
    "exec",
    "e",
    "resume",
    "fork",
    "mcp",
    "features",
    "doctor",
    "archive",
    "unarchive",
    "delete",
    "review",
)
"""Subcommands that take the root options they know when those come before them."""


def _config_pairs(options: list[list[str]]) -> list[str]:
    """The `k=v` values of `-c`/`--config` options."""
    pairs: list[str] = []
    for option in options:
        if option[0] in ("-c", "--config") and len(option) == 2:
            pairs.append(option[1])
        elif option[0].startswith("--config="):
            pairs.append(option[0].removeprefix("--config="))
        elif option[0].startswith("-c") and len(option[0]) > 2:
            pairs.append(option[0][2:])
    return pairs


def _with_root_options(head: str, options: list[list[str]], rest: list[str]) -> list[str]:
    """`rest` (after `head`) with the leading root options `head`'s parser also has."""
    if head in ("exec", "e", "review"):
        from codex_tui.exec.cli import exec_options

        known: Collection[str] = exec_options()
    elif head in ("resume", "fork", "archive", "unarchive", "delete"):
        # the session commands take every common option (0.169's accept and ignore most)
        known = build_resume_parser()._option_string_actions
    elif head == "features":
        known = ("-c", "--config", "--enable", "--disable", "--strict-config")
    elif head == "doctor":
        known = ("-c", "--config", "--enable", "--disable", "--strict-config", "-p", "--profile")
    else:
        known = ("-c", "--config")
    kept: list[str] = []
    for option in options:
        name = option[0].split("=", 1)[0] if option[0].startswith("--") else option[0][:2]
        if name in known:
            kept.extend(option)
    return kept + rest


STRICT_CONFIG_COMMANDS = (
    "exec",
    "e",
    "resume",
    "fork",
    "archive",
    "unarchive",
    "delete",
    "review",
)
"""Subcommands that take a root `--strict-config` (it is refused before any other)."""

BUILTIN = ("exec", "e", "resume", "fork", "login", "logout", "help")
"""Subcommands `_dispatch` runs itself (beside PASSTHROUGH, SERVERS and UNSUPPORTED)."""


BUILTIN_HELP = {
    "exec": "run codex non-interactively (alias: e)",
    "resume": "resume a recorded session (a picker by default; --last for the newest)",
    "fork": "fork a recorded session into a new one (a picker by default; --last)",
    "login": "store an API key (--with-api-key) or show the login status",
    "logout": "remove the stored credentials",
}
COMMAND_ORDER = (
    "exec", "review", "login", "logout", "mcp", "plugin", "app-server", "acp", "completion",
    "doctor", "sandbox", "debug", "resume", "fork", "queue", "archive", "unarchive", "delete",
    "features", "sessions", "execpolicy",
)  # fmt: skip
"""The order `codex --help` lists commands in (Codex 0.169's, ours added where they fit)."""


def commands() -> list[tuple[str, str]]:
    """Every subcommand this codex runs, with its one-line help, in `COMMAND_ORDER`."""
    table = dict(BUILTIN_HELP)
    table.update({name: entry[1] for name, entry in PASSTHROUGH.items()})
    table.update(
        {
            "app-server": "run the app server (JSON-RPC for IDE clients)",
            "acp": "run as an ACP agent",
        }
    )
    table.update({name: "" for name in SERVERS if name not in table})
    order = [name for name in COMMAND_ORDER if name in table]
    return [(name, table[name]) for name in order + sorted(set(table) - set(order))]


def commands_epilog() -> str:
    """The command table under `codex --help`."""
    rows = [f"  {name:<12} {text}" for name, text in commands()]
    return "commands:\n" + "\n".join(rows) + "\n\nRun `codex <command> --help` for its options."


def _is_subcommand(word: str) -> bool:
    return word in SERVERS or word in PASSTHROUGH or word in UNSUPPORTED or word in BUILTIN


def _dispatch(args: list[str]) -> int:
    leading, rest = _leading_options(args)
    if rest and rest[0] in SERVERS:
        import importlib

        server: Callable[[list[str], list[str]], int] = importlib.import_module(
            SERVERS[rest[0]]
        ).main
        return server(rest[1:], _config_pairs(leading))
    if leading and rest and _is_subcommand(rest[0]):
        # Root options before a subcommand: it takes those it knows; the others are the
        # root's, which 0.169 accepts and ignores there (`codex -m X mcp list`).
        head = rest[0]
        if ["--strict-config"] in leading and head not in STRICT_CONFIG_COMMANDS:
            # as 0.169: commands that do not load the session config refuse the flag
            print(f"Error: `--strict-config` is not supported for `codex {head}`", file=sys.stderr)
            return 1
        if head in SUBCOMMANDS_WITH_ROOT_OPTIONS:
            return _dispatch([head, *_with_root_options(head, leading, rest[1:])])
        return _dispatch(rest)
    head = args[0] if args else ""
    if head in PASSTHROUGH:
        module_name, _, function = PASSTHROUGH[head][0].partition(":")
        import importlib

        module = importlib.import_module(module_name)
        run: Callable[[list[str]], int] = getattr(module, function or "main")
        return run(args[1:])
    if head in ("exec", "e"):
        from codex_tui.exec.cli import review_words

        review = review_words(args[1:])  # `codex exec [OPTIONS] review …`
        if review is not None:
            from codex_tui.exec.review import main as review_main

            return review_main(review)
        from codex_tui.exec.cli import main as exec_main

        return exec_main(args[1:])
    if head == "login":
        from codex_tui.cli.login import main as login_main

        return login_main(args[1:])
    if head == "logout":
        from codex_tui.cli.login import logout_main

        return logout_main(args[1:])
    if head in UNSUPPORTED:
        raise UsageError(
            f"codex {head}: this subcommand of the Codex CLI is not available in this codex; "
            "run `codex --help` for the ones it has"
        )
    if head == "resume":
        ns = build_resume_parser().parse_args(args[1:])
        return _run_tui(ns, resume="id" if ns.session_id else ("last" if ns.last else "picker"))
    if head == "fork":
        ns = build_fork_parser().parse_args(args[1:])
        return _run_tui(
            ns, resume="id" if ns.session_id else ("last" if ns.last else "picker"), fork=True
        )
    if head in ("help", "-h", "--help") and len(args) == 1:
        build_tui_parser().print_help()
        return 0
    ns = build_tui_parser().parse_args(args)
    return _run_tui(ns, resume="none")


def _run_tui(
    ns: argparse.Namespace,
    *,
    resume: Literal["none", "picker", "last", "id"],
    fork: bool = False,
) -> int:
    from pathlib import Path

    from codex_tui.cli.config_flags import ConfigFlagError, config_pairs
    from codex_tui.cli.overrides import overrides_from_args, split_image_args

    overrides = overrides_from_args(ns, approval=getattr(ns, "ask_for_approval", None))
    try:
        pairs = config_pairs(ns)
    except ConfigFlagError as err:
        print(err, file=sys.stderr)
        return 1
    if ns.no_alt_screen:
        pairs.append('tui.alternate_screen="never"')
    from codex_tui.cli.tui import run_tui

    code: int = run_tui(
        overrides,
        pairs,
        fork=fork,
        prompt=getattr(ns, "prompt", None),
        images=[Path(p) for p in split_image_args(ns.image)],
        resume=resume,
        resume_id=getattr(ns, "session_id", None),
        show_all=bool(getattr(ns, "all", False)),
        remote=getattr(ns, "remote", None),
        remote_token_env=getattr(ns, "remote_auth_token_env", None),
    )
    return code
