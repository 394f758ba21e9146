"""The slash commands: names, one-line descriptions, which need an idle session, and parsing."""

from __future__ import annotations

import re
from dataclasses import dataclass

from codex_tui.app.fuzzy import fuzzy_filter


@dataclass(frozen=True)
class SlashCommand:
    """One command as the popup lists it."""

    name: str
    description: str
    idle_only: bool = True


COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("model", "pick the model and how hard it reasons"),
    SlashCommand("permissions", "pick what Codex may do without asking (alias /approvals)"),
    SlashCommand("new", "start a fresh conversation"),
    SlashCommand("resume", "reopen a saved conversation"),
    SlashCommand("fork", "continue this conversation as a new session"),
    SlashCommand("init", "have Codex write an AGENTS.md for this project"),
    SlashCommand("compact", "summarise the conversation to free context"),
    SlashCommand("review", "have a reviewer look at changes, a branch or a commit"),
    SlashCommand("undo", "put files back as they were before the last turn"),
    SlashCommand("diff", "show the working-tree diff, new files included", idle_only=False),
    SlashCommand("mention", "insert a file path (same as typing @)", idle_only=False),
    SlashCommand("status", "settings, session and token usage", idle_only=False),
    SlashCommand("mcp", "MCP servers, their state and tools", idle_only=False),
    SlashCommand(
        "hooks", "your hooks, and trust or turn them off (/hooks trust N)", idle_only=False
    ),
    SlashCommand("skills", "the skills Codex can use ($name hands one over)", idle_only=False),
    SlashCommand("ps", "list the commands running in the background", idle_only=False),
    SlashCommand("stop", "stop every background command (/stop ID: just one)", idle_only=False),
    SlashCommand("logout", "forget the saved API key and quit"),
    SlashCommand("quit", "leave Codex", idle_only=False),
    SlashCommand("exit", "leave Codex", idle_only=False),
)
ALIASES = {"approvals": "permissions"}
BY_NAME = {command.name: command for command in COMMANDS}
COMMAND_WORD = re.compile(r"/([a-z][a-z0-9_-]*)")


@dataclass(frozen=True)
class Invocation:
    """A submitted `/name args` that names a known command."""

    command: SlashCommand
    args: str


@dataclass(frozen=True)
class Unknown:
    """A submitted `/word` that names no command: never sent to the model."""

    word: str


def parse(text: str) -> Invocation | Unknown | None:
    """The command a submission runs; None for ordinary text (a path like /usr/bin is text)."""
    stripped = text.strip()
    head, _, args = stripped.partition(" ")
    if "\n" in head:
        head, _, args = stripped.partition("\n")
    match = COMMAND_WORD.fullmatch(head)
    if match is None:
        return None
    name = ALIASES.get(match.group(1), match.group(1))
    command = BY_NAME.get(name)
    if command is None:
        return Unknown(head)
    return Invocation(command, args.strip())


def popup_query(text: str) -> str | None:
    """The filter text while the composer holds only `/partial-name`, else None."""
    if not text.startswith("/") or any(ch.isspace() for ch in text):
        return None
    return text[1:]


def matching(query: str) -> list[SlashCommand]:
    """Commands whose name (or alias) fuzzily matches `query`, best first."""
    names = [c.name for c in COMMANDS]
    found = fuzzy_filter(query, names)
    for alias, target in ALIASES.items():
        if query and alias.startswith(query) and target not in found:
            found.insert(0, target)
    return [BY_NAME[name] for name in found]
