"""Fuzzy line-sequence search: each strictness level and end-of-file anchoring."""

from __future__ import annotations

from codex_core.apply_patch.seek import normalise_punctuation, seek_sequence


def test_seek_sequence_exact_match() -> None:
    assert seek_sequence(["foo", "bar", "baz"], ["bar", "baz"], 0) == 1


def test_seek_sequence_ignores_trailing_whitespace() -> None:
    assert seek_sequence(["foo   ", "bar\t\t"], ["foo", "bar"], 0) == 0


def test_seek_sequence_ignores_surrounding_whitespace() -> None:
    assert seek_sequence(["    foo   ", "   bar\t"], ["foo", "bar"], 0) == 0


def test_seek_sequence_normalises_unicode_punctuation() -> None:
    lines = ["x = \u201chello\u201d \u2014 it\u2019s\u00a0fine"]
    assert seek_sequence(lines, ['x = "hello" - it\'s fine'], 0) == 0


def test_seek_sequence_prefers_stricter_level_over_earlier_position() -> None:
    # The loose match at index 0 loses to the exact one further down.
    assert seek_sequence(["  foo", "bar", "foo"], ["foo"], 0) == 2


def test_seek_sequence_respects_start() -> None:
    assert seek_sequence(["a", "b", "a"], ["a"], 1) == 2


def test_seek_sequence_not_found_and_too_long() -> None:
    assert seek_sequence(["a", "b"], ["c"], 0) is None
    assert seek_sequence(["one"], ["too", "many"], 0) is None


def test_seek_sequence_empty_pattern_matches_at_start() -> None:
    assert seek_sequence(["a"], [], 1) == 1


def test_seek_sequence_end_of_file_prefers_the_last_occurrence() -> None:
    lines = ["x", "end", "y", "end"]
    assert seek_sequence(lines, ["end"], 0, end_of_file=False) == 1
    assert seek_sequence(lines, ["end"], 0, end_of_file=True) == 3


def test_seek_sequence_end_of_file_falls_back_to_normal_search() -> None:
    assert seek_sequence(["end", "x"], ["end"], 0, end_of_file=True) == 0


def test_normalise_punctuation_maps_dashes_quotes_and_spaces() -> None:
    assert normalise_punctuation("\u2010\u2212\u2018\u201b\u201e\u3000a\u2009") == "--''\" a"
