"""`codex completion [bash|zsh|fish]`: a shell completion script for the subcommands and flags."""

from __future__ import annotations

import sys

from codex_tui.cli.args import CliParser


def subcommands() -> tuple[str, ...]:
    """Every command `codex --help` lists, plus `e` and `help`."""
    from codex_tui.cli.main import commands

    return (*(name for name, _ in commands()), "e", "help")


FLAGS = (
    "--model",
    "--config",
    "--profile",
    "--cd",
    "--sandbox",
    "--ask-for-approval",
    "--image",
    "--oss",
    "--full-auto",
    "--search",
    "--version",
    "--help",
    "--enable",
    "--disable",
    "--strict-config",
    "--no-alt-screen",
    "--worktree",
    "--dangerously-bypass-approvals-and-sandbox",
    "--yolo",
    "--approve-for-me",
)
EXEC_FLAGS = (
    "--json",
    "--skip-git-repo-check",
    "--output-last-message",
    "--output-schema",
    "--color",
    "--add-dir",
    "--ephemeral",
    "--last",
    "--all",
)


def _bash() -> str:
    words = " ".join(subcommands() + FLAGS)
    exec_words = " ".join(("resume", "fork", "review") + FLAGS + EXEC_FLAGS)
    return f"""_codex() {{
    local cur="${{COMP_WORDS[COMP_CWORD]}}"
    if [[ ${{COMP_CWORD}} -gt 1 && ( "${{COMP_WORDS[1]}}" == "exec" || "${{COMP_WORDS[1]}}" == "e" ) ]]; then
        COMPREPLY=( $(compgen -W "{exec_words}" -- "$cur") )
    elif [[ ${{COMP_CWORD}} -eq 1 ]]; then
        COMPREPLY=( $(compgen -W "{words}" -- "$cur") )
    else
        COMPREPLY=( $(compgen -f -- "$cur") )
    fi
}}
complete -F _codex -o bashdefault -o default codex
"""


def _zsh() -> str:
    return "#compdef codex\nautoload -U bashcompinit\nbashcompinit\n" + _bash()


def _fish() -> str:
    lines = [f"complete -c codex -n __fish_use_subcommand -a {name}" for name in subcommands()]
    lines += [f"complete -c codex -l {flag.removeprefix('--')}" for flag in FLAGS]
    lines += [
        f"complete -c codex -n '__fish_seen_subcommand_from exec' -l {flag.removeprefix('--')}"
        for flag in EXEC_FLAGS
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Entry for `codex completion [SHELL]` (bash when omitted, as in Codex 0.169)."""
    parser = CliParser(prog="codex completion", description="Print a shell completion script.")
    parser.add_argument("shell", nargs="?", default="bash", choices=["bash", "zsh", "fish"])
    ns = parser.parse_args(argv)
    script = {"bash": _bash, "zsh": _zsh, "fish": _fish}[ns.shell]()
    try:
        sys.stdout.write(script)
        sys.stdout.flush()
    except BrokenPipeError:  # `codex completion | head` is fine
        pass
    return 0
