"""Persistent command rules from `$CODEX_HOME/rules/*.rules`: allow, prompt or forbidden.

File format (the `prefix_rule` subset of the Codex CLI's Starlark rules, read without eval):

    # comments start with '#'
    prefix_rule(pattern=["git", "push"], decision="prompt")
    prefix_rule(
        pattern=["npm", ["test", "run"]],   # a nested list lists alternatives
        decision="allow",                    # allow (default) | prompt | forbidden
        justification="tests are fine",      # optional, shown with the decision
        match=["npm test --watch"],          # optional examples checked at load time
        not_match=[["npm", "install"]],
    )

A rule matches a command whose argv starts with its pattern; when several match, the strictest
wins (forbidden > prompt > allow). A rule that cannot be read is skipped with a one-line
warning naming `file:line`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from codex_core.lazy import lazy_attributes

if TYPE_CHECKING:
    from codex_core.execpolicy.model import DECISIONS, PrefixRule, RuleDecision, RuleMatch, RuleSet
    from codex_core.execpolicy.parser import parse_rules
    from codex_core.execpolicy.store import append_allow_rule, load_rule_files, load_rules
    from codex_core.execpolicy.suggest import suggest_prefix

_MODULE_OF = {
    "DECISIONS": "model",
    "PrefixRule": "model",
    "RuleDecision": "model",
    "RuleMatch": "model",
    "RuleSet": "model",
    "parse_rules": "parser",
    "append_allow_rule": "store",
    "load_rule_files": "store",
    "load_rules": "store",
    "suggest_prefix": "suggest",
}
"""Where each name lives: loaded on first use, so a session imports only what its first
request needs (issue 29)."""

__all__ = [
    "DECISIONS",
    "PrefixRule",
    "RuleDecision",
    "RuleMatch",
    "RuleSet",
    "append_allow_rule",
    "load_rule_files",
    "load_rules",
    "parse_rules",
    "suggest_prefix",
]

__getattr__ = lazy_attributes(__name__, _MODULE_OF, globals())
