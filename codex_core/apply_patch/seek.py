"""Fuzzy search for a run of lines, from exact matching to whitespace/punctuation-blind."""

from __future__ import annotations

from collections.abc import Callable, Sequence

# Typographic characters a model tends to type as ASCII (or the reverse).
_UNICODE_PUNCTUATION = str.maketrans(
    {
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
        **dict.fromkeys("\u2018\u2019\u201a\u201b", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f", '"'),
        **dict.fromkeys(
            "\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000",
            " ",
        ),
    }
)


def _exact(line: str) -> str:
    return line


def _rstrip(line: str) -> str:
    return line.rstrip()


def _strip(line: str) -> str:
    return line.strip()


def normalise_punctuation(line: str) -> str:
    """`line` stripped, with Unicode dashes, quotes and spaces replaced by ASCII ones."""
    return line.strip().translate(_UNICODE_PUNCTUATION)


# Most to least strict; the first level that finds the pattern wins.
FUZZ_LEVELS: tuple[Callable[[str], str], ...] = (_exact, _rstrip, _strip, normalise_punctuation)


NormalisedLines = dict[Callable[[str], str], list[str]]
"""Each fuzz level's view of a file's lines, computed once per file and reused by every chunk."""


def seek_sequence(
    lines: Sequence[str],
    pattern: Sequence[str],
    start: int,
    end_of_file: bool = False,
    cache: NormalisedLines | None = None,
) -> int | None:
    """Index where `pattern` occurs in `lines` at or after `start`, or None.

    Each fuzz level (exact, ignoring trailing whitespace, ignoring surrounding whitespace,
    normalising Unicode punctuation) is tried over the whole range before the next, looser
    one. With `end_of_file`, a match ending on the last line is preferred; the search
    falls back to the normal range when the pattern is not at the end.

    Args:
        lines: the file's lines, without line terminators.
        pattern: the lines to find.
        start: the first index a match may begin at.
        end_of_file: the pattern should sit at the end of the file.
        cache: normalised lines shared by searches in the same, unchanged `lines`.
    """
    if not pattern:
        return start
    if len(pattern) > len(lines):
        return None
    last = len(lines) - len(pattern)
    if end_of_file:
        found = _search(lines, pattern, last, last, cache)
        if found is not None:
            return found
    return _search(lines, pattern, start, last, cache)


def _search(
    lines: Sequence[str],
    pattern: Sequence[str],
    first: int,
    last: int,
    cache: NormalisedLines | None,
) -> int | None:
    size = len(pattern)
    views: NormalisedLines = {} if cache is None else cache
    for level in FUZZ_LEVELS:
        view: Sequence[str] = lines
        if level is not _exact:
            if level not in views:
                views[level] = [level(line) for line in lines]
            view = views[level]
        wanted = [level(p) for p in pattern]
        head = wanted[0]
        index = first
        while index <= last:
            try:  # list.index scans in C; this loop is the hot path of big patches
                index = view.index(head, index, last + 1)
            except ValueError:
                break
            if all(view[index + k] == wanted[k] for k in range(1, size)):
                return index
            index += 1
    return None
