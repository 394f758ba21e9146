"""Read `bash -lc SCRIPT` scripts with tree-sitter-bash and extract plain word commands.

A script counts as *plain* when it is only simple commands made of literal words joined by
`&&`, `||`, `;`, `|` or newlines (comments allowed). Everything else is refused, because its
meaning depends on run-time state the classifier cannot see:

- redirections (`>`, `<`, `2>&1`, heredocs, here-strings) can write files;
- command and process substitution, variables, arithmetic and `$"…"` run or read things;
- subshells, `{ …; }`, `if`/`for`/`while`, functions, `!` and background `&` change control flow;
- `VAR=value cmd` can change how the command behaves (`GIT_EXTERNAL_DIFF`, `LD_PRELOAD`);
- globs (`*`, `?`, `[`), brace expansion and backslash escapes in bare words are refused:
  a glob expands to file names, and a file named `--pre=sh` would become a flag;
- `|&` and `;;` are not accepted operators.

Words may be bare (letters, digits and `_-./:,+@%=`, a leading `~`), single-quoted,
double-quoted without expansions, numbers, or concatenations of those.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

SHELLS = frozenset({"bash", "zsh", "sh"})
SHELL_DIRS = ("/bin/", "/usr/bin/")
SCRIPT_FLAGS = frozenset({"-c", "-lc"})
_OPERATORS = frozenset({"&&", "||", ";", "|"})
_BARE_WORD = re.compile(r"~?[A-Za-z0-9_\-./:,+@%=]*")
_NUMBER = re.compile(r"[0-9]+")
_DQ_ESCAPES = frozenset('$`"\\')


@functools.lru_cache(maxsize=1)
def _parser() -> Parser:
    # Imported here so that importing codex_core.command_safety stays cheap.
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bash.language()))


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _source(script: str) -> tuple[bytes, bool]:
    """The bytes tree-sitter parses, and whether they had to differ from the script.

    tree-sitter-bash's scanner crashes the whole process on some characters beyond U+FFFF
    (`{` followed by U+EBAAB, found by fuzzing), so those become U+FFFD; lone surrogates,
    which cannot be encoded, become `?`.
    """
    cleaned = _ASTRAL.sub("\ufffd", script)
    data = cleaned.encode("utf-8", errors="replace")
    return data, cleaned != script or len(data) != len(cleaned.encode("utf-8", "surrogatepass"))


def shell_wrapper_script(argv: list[str]) -> str | None:
    """The script of a `bash -lc SCRIPT` / `bash -c` / `zsh -lc` / `sh -c` argv, else None."""
    if len(argv) != 3 or argv[1] not in SCRIPT_FLAGS:
        return None
    shell = argv[0]
    for prefix in SHELL_DIRS:
        if shell.startswith(prefix):
            shell = shell[len(prefix) :]
            break
    return argv[2] if shell in SHELLS else None


def parse_plain_script(script: str) -> list[list[str]] | None:
    """The argv of each command of a plain script, or None when the script is not plain.

    An empty script gives an empty list.
    """
    source, altered = _source(script)
    if altered:  # characters we could not show the parser as they are: not plain
        return None
    tree = _parser().parse(source)
    root = tree.root_node
    if root.has_error:
        return None
    commands: list[list[str]] = []
    return commands if _collect_plain(root, commands) else None


def command_prefixes(script: str) -> list[list[str]]:
    """Best-effort literal argv prefixes of every command anywhere in a script.

    Unlike `parse_plain_script`, this looks inside substitutions, subshells, loops and
    redirections, and cuts each command at its first non-literal word. Rules use it so a
    `forbidden` or `prompt` rule still applies to `echo $(git push)`.
    """
    tree = _parser().parse(_source(script)[0])
    prefixes: list[list[str]] = []
    stack: list[Node] = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "command":
            words: list[str] = []
            for child in node.named_children:
                if child.type == "variable_assignment" and not words:
                    continue
                value = _word_value(
                    child.named_children[0] if child.type == "command_name" else child, not words
                )
                if value is None:
                    break
                words.append(value)
            if words:
                prefixes.append(words)
        stack.extend(reversed(node.named_children))
    return prefixes


def _collect_plain(node: Node, out: list[list[str]]) -> bool:
    if node.type in ("program", "list", "pipeline"):
        for child in node.children:
            if not child.is_named:
                if child.type not in _OPERATORS:
                    return False
            elif child.type != "comment" and not _collect_plain(child, out):
                return False
        return True
    if node.type == "command":
        argv = _command_argv(node)
        if argv is None:
            return False
        out.append(argv)
        return True
    return False


def _command_argv(node: Node) -> list[str] | None:
    argv: list[str] = []
    for index, child in enumerate(node.children):
        if index == 0:
            if child.type != "command_name" or child.named_child_count != 1:
                return None
            child = child.named_children[0]
        value = _word_value(child, index == 0)
        if value is None:
            return None
        argv.append(value)
    return argv or None


def _word_value(node: Node, first_word: bool) -> str | None:
    """The literal value of one word node, or None if it is not a plain literal."""
    text = _text(node)
    match node.type:
        case "word":
            if _BARE_WORD.fullmatch(text) is None or (first_word and text.startswith("=")):
                return None
            return text
        case "number":
            return text if _NUMBER.fullmatch(text) else None
        case "raw_string":
            return text[1:-1] if len(text) >= 2 else None
        case "string":
            return _double_quoted_value(node)
        case "concatenation":
            parts: list[str] = []
            for index, child in enumerate(node.children):
                if child.type == "word" and "~" in _text(child) and index > 0:
                    return None
                part = _word_value(child, first_word and index == 0)
                if part is None:
                    return None
                parts.append(part)
            return "".join(parts)
        case _:
            return None


def _double_quoted_value(node: Node) -> str | None:
    children = node.children
    if len(children) < 2 or children[0].type != '"' or children[-1].type != '"':
        return None
    pieces: list[str] = []
    for child in children[1:-1]:
        if child.type != "string_content":
            return None
        decoded = _unescape_double_quoted(_text(child))
        if decoded is None:
            return None
        pieces.append(decoded)
    return "".join(pieces)


def _unescape_double_quoted(raw: str) -> str | None:
    """Apply bash's backslash rules inside double quotes; None on any live `$` or backquote."""
    out: list[str] = []
    i = 0
    while i < len(raw):
        char = raw[i]
        if char == "\\" and i + 1 < len(raw):
            following = raw[i + 1]
            if following in _DQ_ESCAPES:
                out.append(following)
            elif following != "\n":
                out.append(char + following)
            i += 2
            continue
        if char in "$`":
            return None
        out.append(char)
        i += 1
    return "".join(out)


def _text(node: Node) -> str:
    return node.text.decode() if node.text is not None else ""
