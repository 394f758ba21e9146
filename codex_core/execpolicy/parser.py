"""Parse `.rules` files: the `prefix_rule(...)` subset of Starlark, read with Python's `ast`.

Nothing is evaluated or compiled: the text is only parsed into a syntax tree (Starlark's
call and literal syntax is Python's), and the tree is read. The one statement known is
`prefix_rule(key=value, ...)`, whose values are strings or (nested) lists of strings; `#`
starts a comment. A bad rule becomes a one-line warning naming `file:line`, and reading
resumes at the next line that starts with `prefix_rule`.
"""

from __future__ import annotations

import ast
import re
import shlex
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TypeAlias

from codex_core.execpolicy.model import DECISIONS, PrefixRule

Value: TypeAlias = "str | list[Value]"
_KEYWORDS = frozenset({"pattern", "decision", "justification", "match", "not_match"})
_RULE_START = re.compile(r"^[ \t]*prefix_rule\b", re.MULTILINE)
_WORD = re.compile(r"\w+|\S")
_VALUE_BEFORE = ("=", "[", ",", "(")
"""A syntax error right after one of these is where a value (or a key) was expected."""


class _RuleSyntaxError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class ParsedRules:
    """The rules read from one file and a warning per skipped or suspicious rule."""

    rules: list[PrefixRule] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Statement:
    node: ast.stmt
    lines: list[str]
    """The source the node was parsed from, for naming what a bad statement starts with."""


def _parse(source: str) -> list[ast.stmt]:
    """`ast.parse`, quietly (an odd escape warns in Python), with every failure a SyntaxError."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source, mode="exec").body
    except (ValueError, RecursionError, MemoryError) as err:  # NUL bytes, absurd nesting
        raise SyntaxError(str(err) or err.__class__.__name__) from None


def _statements(text: str) -> Iterator[_Statement | _RuleSyntaxError]:
    """The file's statements; on a syntax error, chunk by chunk (one per `prefix_rule` line)."""
    try:
        body = _parse(text)
    except SyntaxError:
        pass
    else:
        lines = text.split("\n")
        yield from (_Statement(node, lines) for node in body)
        return
    starts = sorted({0, *(m.start() for m in _RULE_START.finditer(text))})
    for start, end in zip(starts, [*starts[1:], len(text)], strict=True):
        first_line = text.count("\n", 0, start) + 1
        # Blank lines in front keep line numbers right; the indentation must go (top level).
        yield from _chunk(("\n" * (first_line - 1)) + text[start:end].lstrip(" \t"))


def _chunk(source: str) -> Iterator[_Statement | _RuleSyntaxError]:
    lines = source.split("\n")
    try:
        body = _parse(source)
    except SyntaxError as err:
        if err.lineno is None:  # no position: NUL bytes, absurd nesting
            yield _RuleSyntaxError(len(source) - len(source.lstrip("\n")) + 1, err.msg)
            return
        line = err.lineno
        at = _index(lines, line, err.offset or 1)
        found = _found(source, at, err.msg)
        head = source[:at].rstrip(" \t")
        before = None
        if head.endswith((")", "\n")) or not head:  # a statement may have ended here
            try:
                before = _parse(head)
            except SyntaxError:
                pass
        if before is not None:  # the error is where a new statement should start
            yield from (_Statement(node, lines) for node in before)
            yield _RuleSyntaxError(line, f"expected prefix_rule(...) but found {found}")
        elif source[:at].rstrip().endswith(_VALUE_BEFORE):
            yield _RuleSyntaxError(line, f"expected a string or a list but found {found}")
        else:
            yield _RuleSyntaxError(line, err.msg)
        return
    yield from (_Statement(node, lines) for node in body)


def _index(lines: list[str], line: int, column: int) -> int:
    """The index in the joined text of 1-based (line, column)."""
    line = min(max(line, 1), len(lines))
    return sum(len(text) + 1 for text in lines[: line - 1]) + max(column - 1, 0)


def _found(source: str, at: int, message: str) -> str:
    """What a syntax error found at `at`, in the reader's words."""
    if "unterminated" in message and "string" in message:
        return "unterminated string"
    rest = source[at:].lstrip()
    if not rest:
        return "the end of the file"
    word = _WORD.match(rest)
    token = word.group() if word else rest[0]
    if token in "$?`" or not token.isprintable():
        return f"unexpected character {token!r}"
    return f"'{token}'"


def _describe(node: ast.stmt | ast.expr, lines: list[str]) -> str:
    """How a node the reader did not expect is named in a warning: its first word."""
    if isinstance(node, ast.Expr):
        node = node.value
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return f"the string {node.value!r}"
    line = lines[node.lineno - 1] if 0 < node.lineno <= len(lines) else ""
    # col_offset counts UTF-8 bytes.
    column = len(line.encode()[: node.col_offset].decode(errors="ignore"))
    word = _WORD.match(line[column:])
    return f"'{word.group()}'" if word else "an empty statement"


def _value(node: ast.expr, lines: list[str]) -> Value:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.List | ast.Tuple):
        return [_value(item, lines) for item in node.elts]
    raise _RuleSyntaxError(
        node.lineno, f"expected a string or a list but found {_describe(node, lines)}"
    )


def _call(statement: _Statement) -> tuple[int, dict[str, Value]]:
    node, lines = statement.node, statement.lines
    call = node.value if isinstance(node, ast.Expr) else None
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id == "prefix_rule"
    ):
        raise _RuleSyntaxError(
            node.lineno, f"expected prefix_rule(...) but found {_describe(node, lines)}"
        )
    if call.args:
        found = _describe(call.args[0], lines)
        raise _RuleSyntaxError(call.args[0].lineno, f"expected key=value but found {found}")
    arguments: dict[str, Value] = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            raise _RuleSyntaxError(keyword.lineno, "expected key=value but found '**'")
        if keyword.arg not in _KEYWORDS:
            raise _RuleSyntaxError(keyword.lineno, f"unknown argument '{keyword.arg}'")
        if keyword.arg in arguments:
            raise _RuleSyntaxError(keyword.lineno, f"argument '{keyword.arg}' given twice")
        arguments[keyword.arg] = _value(keyword.value, lines)
    return call.lineno, arguments


def _pattern(value: Value | None, line: int) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, list) or not value:
        raise _RuleSyntaxError(line, "pattern must be a non-empty list of strings")
    elements: list[tuple[str, ...]] = []
    for item in value:
        if isinstance(item, str):
            elements.append((item,))
        elif item and all(isinstance(alt, str) for alt in item):
            elements.append(tuple(str(alt) for alt in item))
        else:
            raise _RuleSyntaxError(
                line, "each pattern element must be a string or a list of strings"
            )
    return tuple(elements)


def _examples(value: Value | None, name: str, line: int) -> list[list[str]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _RuleSyntaxError(line, f"{name} must be a list of commands")
    examples: list[list[str]] = []
    for item in value:
        if isinstance(item, str):
            try:
                examples.append(shlex.split(item))
            except ValueError as err:
                raise _RuleSyntaxError(line, f"{name} example {item!r}: {err}") from None
        elif all(isinstance(word, str) for word in item):
            examples.append([str(word) for word in item])
        else:
            raise _RuleSyntaxError(line, f"{name} examples must be strings or lists of strings")
    return examples


def _build_rule(
    line: int, arguments: dict[str, Value], source: str
) -> tuple[PrefixRule, list[str]]:
    pattern = _pattern(arguments.get("pattern"), line)
    decision = arguments.get("decision", "allow")
    if not isinstance(decision, str) or decision not in DECISIONS:
        raise _RuleSyntaxError(line, 'decision must be "allow", "prompt" or "forbidden"')
    justification = arguments.get("justification")
    if justification is not None and not isinstance(justification, str):
        raise _RuleSyntaxError(line, "justification must be a string")
    rule = PrefixRule(
        pattern=pattern, decision=DECISIONS[decision], justification=justification, source=source
    )
    problems = [
        f"example {shlex.join(example)!r} does not match the pattern"
        for example in _examples(arguments.get("match"), "match", line)
        if not rule.matches(example)
    ] + [
        f"not_match example {shlex.join(example)!r} matches the pattern"
        for example in _examples(arguments.get("not_match"), "not_match", line)
        if rule.matches(example)
    ]
    return rule, problems


def parse_rules(text: str, path: str) -> ParsedRules:
    """Read every `prefix_rule(...)` of a file's text; `path` names the file in messages."""
    parsed = ParsedRules()
    for statement in _statements(text):
        try:
            if isinstance(statement, _RuleSyntaxError):
                raise statement
            line, arguments = _call(statement)
            rule, problems = _build_rule(line, arguments, f"{path}:{line}")
        except _RuleSyntaxError as err:
            parsed.warnings.append(f"{path}:{err.line}: {err}; skipped this rule")
            continue
        for problem in problems:
            kept = rule.decision != "allow"
            action = (
                "kept it because it only makes approval stricter" if kept else "skipped this rule"
            )
            parsed.warnings.append(f"{rule.source}: {problem}; {action}")
        if not problems or rule.decision != "allow":
            parsed.rules.append(rule)
    return parsed
