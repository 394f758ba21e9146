"""Prefix rules, their matches, and rule sets with strictest-wins matching."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Literal

RuleDecision = Literal["allow", "prompt", "forbidden"]
DECISIONS: dict[str, RuleDecision] = {
    "allow": "allow",
    "prompt": "prompt",
    "forbidden": "forbidden",
}
_STRICTNESS: dict[RuleDecision, int] = {"allow": 0, "prompt": 1, "forbidden": 2}


@dataclass(frozen=True)
class PrefixRule:
    """`prefix_rule(pattern=[...], decision=...)`: matches argvs that start with `pattern`.

    Each pattern element lists the words accepted at that position (one for a literal).
    """

    pattern: tuple[tuple[str, ...], ...]
    decision: RuleDecision
    justification: str | None = None
    source: str = ""

    def matches(self, argv: list[str]) -> bool:
        """Whether `argv` starts with this rule's pattern."""
        if len(argv) < len(self.pattern):
            return False
        return all(word in accepted for word, accepted in zip(argv, self.pattern, strict=False))

    @property
    def text(self) -> str:
        """The rule written back in `.rules` syntax."""
        elements = [
            _quote(alts[0]) if len(alts) == 1 else "[" + ", ".join(map(_quote, alts)) + "]"
            for alts in self.pattern
        ]
        return f"prefix_rule(pattern=[{', '.join(elements)}], decision={_quote(self.decision)})"


def _quote(word: str) -> str:
    return json.dumps(word, ensure_ascii=False)


@dataclass(frozen=True)
class RuleMatch:
    """The rule that decided a command."""

    decision: RuleDecision
    rule_text: str
    source: str
    justification: str | None = None

    @classmethod
    def of(cls, rule: PrefixRule) -> RuleMatch:
        """The match describing `rule`."""
        return cls(rule.decision, rule.text, rule.source, rule.justification)


@dataclass
class RuleSet:
    """Loaded rules in file order, plus warnings about lines that were skipped."""

    rules: list[PrefixRule] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def match(self, argv: list[str]) -> RuleMatch | None:
        """The strictest rule matching `argv` (forbidden > prompt > allow), or None.

        For `bash -lc SCRIPT` the commands inside the script are matched too: any command
        hitting a `forbidden` or `prompt` rule decides, and `allow` applies only when the
        script is plain and every command in it is allowed.
        """
        # Imported on first match: a session loads its rules before its first request and
        # matches commands only once the model runs one.
        from codex_core.command_safety import shell_wrapper_script

        found = [rule for rule in self.rules if rule.matches(argv)]
        script = shell_wrapper_script(argv)
        if script is not None:
            found.extend(self._script_matches(script))
        best = self._strictest(found)
        return RuleMatch.of(best) if best is not None else None

    def _script_matches(self, script: str) -> list[PrefixRule]:
        from codex_core.command_safety import command_prefixes, parse_plain_script

        plain = parse_plain_script(script)
        commands = plain if plain is not None else command_prefixes(script)
        per_command = [self._strictest([r for r in self.rules if r.matches(c)]) for c in commands]
        strict = [r for r in per_command if r is not None and r.decision != "allow"]
        if strict:
            return strict
        if plain and all(rule is not None for rule in per_command):
            return [rule for rule in per_command if rule is not None][:1]
        return []

    @staticmethod
    def _strictest(rules: list[PrefixRule]) -> PrefixRule | None:
        best: PrefixRule | None = None
        for rule in rules:
            if best is None or _STRICTNESS[rule.decision] > _STRICTNESS[best.decision]:
                best = rule
        return best
