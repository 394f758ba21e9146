"""Fuzzy matching for the slash-command and file popups: subsequence match, cheap ranking."""

from __future__ import annotations

import re
from collections.abc import Iterable


def subsequence_pattern(query: str) -> re.Pattern[str]:
    """A case-insensitive pattern matching text that holds `query`'s characters in order."""
    return re.compile(".*?".join(re.escape(ch) for ch in query.lower()), re.IGNORECASE)


def lowered_subsequence(query: str) -> re.Pattern[str]:
    """A pattern finding lower-cased `query` as a subsequence of lower-cased text; each gap is
    a negated class (`m[^o]*o`), which never backtracks, unlike `.*?` with IGNORECASE."""
    query = query.lower()
    gaps = (f"[^{re.escape(ch)}]*{re.escape(ch)}" for ch in query[1:])
    return re.compile(re.escape(query[:1]) + "".join(gaps))


def rank_key(query: str, text: str) -> tuple[int, int, int]:
    """Sort key (lower is better): prefix match, then substring, then subsequence; then
    a match in the last path component, then shorter text."""
    lowered = text.lower()
    query = query.lower()
    base = lowered.rsplit("/", 1)[-1]
    if base.startswith(query):
        kind = 0
    elif query in base:
        kind = 1
    elif lowered.startswith(query):
        kind = 2
    elif query in lowered:
        kind = 3
    else:
        kind = 4
    return (kind, len(base), len(lowered))


def fuzzy_filter(query: str, candidates: Iterable[str], limit: int | None = None) -> list[str]:
    """Candidates matching `query` as a subsequence, best first (all of them for "")."""
    items = list(candidates)
    if not query:
        return items[:limit] if limit is not None else items
    search = subsequence_pattern(query).search
    matched = [c for c in items if search(c)]
    matched.sort(key=lambda c: rank_key(query, c))
    return matched[:limit] if limit is not None else matched
