"""Parse `.rules` files: a safe reader for the `prefix_rule(...)` subset of Starlark.

Nothing is evaluated. The reader knows one statement, `prefix_rule(key=value, ...)`, whose
values are strings or (nested) lists of strings; `#` starts a comment. A bad rule becomes a
one-line warning naming `file:line`, and reading resumes at the next `prefix_rule`.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from codex_core.execpolicy.model import DECISIONS, PrefixRule

Value: TypeAlias = "str | list[Value]"
_PUNCTUATION = frozenset("()[],=")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "0": "\0"}
_KEYWORDS = frozenset({"pattern", "decision", "justification", "match", "not_match"})


@dataclass(frozen=True)
class _Token:
    kind: Literal["name", "string", "punct", "error", "end"]
    value: str
    line: int
    starts_line: bool


class _RuleSyntaxError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class ParsedRules:
    """The rules read from one file and a warning per skipped or suspicious rule."""

    rules: list[PrefixRule] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    line, i, line_has_token = 1, 0, False
    while i < len(text):
        char = text[i]
        if char == "\n":
            line, line_has_token = line + 1, False
            i += 1
            continue
        if char in " \t\r":
            i += 1
            continue
        if char == "#":
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        starts_line = not line_has_token
        line_has_token = True
        if char in _PUNCTUATION:
            tokens.append(_Token("punct", char, line, starts_line))
            i += 1
        elif char in "\"'":
            value, end = _read_string(text, i)
            if value is None:
                tokens.append(_Token("error", "unterminated string", line, starts_line))
            else:
                tokens.append(_Token("string", value, line, starts_line))
            line += text.count("\n", i, end)
            i = end
        elif char.isalpha() or char == "_":
            start = i
            while i < len(text) and (text[i].isalnum() or text[i] == "_"):
                i += 1
            tokens.append(_Token("name", text[start:i], line, starts_line))
        else:
            tokens.append(_Token("error", f"unexpected character {char!r}", line, starts_line))
            i += 1
    tokens.append(_Token("end", "", line, True))
    return tokens


def _read_string(text: str, start: int) -> tuple[str | None, int]:
    """Read a quoted string at `start`; (None, where reading stopped) when it is not closed.

    Triple-quoted strings may span lines; the others end at the line's end.
    """
    quote = text[start] * 3 if text.startswith(text[start] * 3, start) else text[start]
    i = start + len(quote)
    out: list[str] = []
    while i < len(text) and (len(quote) == 3 or text[i] != "\n"):
        char = text[i]
        if text.startswith(quote, i):
            return "".join(out), i + len(quote)
        if char == "\\" and i + 1 < len(text):
            escaped = text[i + 1]
            if escaped == "u" and i + 6 <= len(text):
                try:
                    out.append(chr(int(text[i + 2 : i + 6], 16)))
                except ValueError:
                    return None, i + 2
                i += 6
                continue
            out.append(_ESCAPES.get(escaped, escaped))
            i += 2
            continue
        out.append(char)
        i += 1
    return None, i


class _Reader:
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> _Token:
        return self.tokens[self.pos]

    def take(self) -> _Token:
        token = self.tokens[self.pos]
        if token.kind != "end":
            self.pos += 1
        return token

    def expect(self, value: str) -> None:
        token = self.take()
        if token.kind != "punct" or token.value != value:
            raise _RuleSyntaxError(token.line, f"expected '{value}' but found {_describe(token)}")

    def skip_to_next_rule(self) -> None:
        self.take()
        while self.peek().kind != "end" and not _starts_rule(self.peek()):
            self.take()


def _starts_rule(token: _Token) -> bool:
    return token.kind == "name" and token.starts_line and token.value == "prefix_rule"


def _describe(token: _Token) -> str:
    if token.kind == "end":
        return "the end of the file"
    if token.kind == "error":
        return token.value
    return f"'{token.value}'" if token.kind != "string" else f"the string {token.value!r}"


def _parse_value(reader: _Reader) -> Value:
    token = reader.take()
    if token.kind == "string":
        return token.value
    if token.kind == "punct" and token.value == "[":
        items: list[Value] = []
        while not (reader.peek().kind == "punct" and reader.peek().value == "]"):
            items.append(_parse_value(reader))
            if reader.peek().kind == "punct" and reader.peek().value == ",":
                reader.take()
            elif not (reader.peek().kind == "punct" and reader.peek().value == "]"):
                raise _RuleSyntaxError(
                    reader.peek().line, f"expected ',' or ']' but found {_describe(reader.peek())}"
                )
        reader.take()
        return items
    raise _RuleSyntaxError(token.line, f"expected a string or a list but found {_describe(token)}")


def _parse_call(reader: _Reader) -> tuple[int, dict[str, Value]]:
    head = reader.take()
    if head.kind != "name" or head.value != "prefix_rule":
        raise _RuleSyntaxError(head.line, f"expected prefix_rule(...) but found {_describe(head)}")
    reader.expect("(")
    arguments: dict[str, Value] = {}
    while not (reader.peek().kind == "punct" and reader.peek().value == ")"):
        key = reader.take()
        if key.kind != "name":
            raise _RuleSyntaxError(key.line, f"expected key=value but found {_describe(key)}")
        if key.value not in _KEYWORDS:
            raise _RuleSyntaxError(key.line, f"unknown argument '{key.value}'")
        reader.expect("=")
        arguments[key.value] = _parse_value(reader)
        if reader.peek().kind == "punct" and reader.peek().value == ",":
            reader.take()
        elif not (reader.peek().kind == "punct" and reader.peek().value == ")"):
            raise _RuleSyntaxError(
                reader.peek().line, f"expected ',' or ')' but found {_describe(reader.peek())}"
            )
    reader.take()
    return head.line, arguments


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
    if decision not in DECISIONS:
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
    reader = _Reader(_tokenize(text))
    while reader.peek().kind != "end":
        start_pos, start_line = reader.pos, reader.peek().line
        try:
            line, arguments = _parse_call(reader)
            rule, problems = _build_rule(line, arguments, f"{path}:{line}")
        except _RuleSyntaxError as err:
            at_next_rule = reader.pos > start_pos and _starts_rule(reader.peek())
            line = start_line if at_next_rule else err.line
            parsed.warnings.append(f"{path}:{line}: {err}; skipped this rule")
            if not at_next_rule:
                reader.skip_to_next_rule()
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
