"""Reading `bash -lc` scripts into argvs with tree-sitter-bash."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codex_core.command_safety import (
    command_prefixes,
    is_known_safe_command,
    parse_plain_script,
    shell_wrapper_script,
)


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("ls -la", [["ls", "-la"]]),
        ("ls && git status | wc -l", [["ls"], ["git", "status"], ["wc", "-l"]]),
        ("a; b || c", [["a"], ["b"], ["c"]]),
        ("echo 'single $x' \"double\"", [["echo", "single $x", "double"]]),
        ('echo "a\\"b" "c\\\\d" "e\\nf"', [["echo", 'a"b', "c\\d", "e\\nf"]]),
        ("rg --pre=\"sh\"'x' foo", [["rg", "--pre=shx", "foo"]]),
        ("echo ''", [["echo", ""]]),
        ("ls # comment", [["ls"]]),
        ("", []),
    ],
)
def test_command_safety_plain_script_yields_argvs(script: str, expected: list[list[str]]) -> None:
    assert parse_plain_script(script) == expected


@pytest.mark.parametrize(
    "script", ["ls > x", "echo $X", 'echo "$X"', "(ls)", "ls &", "X=1 ls", "ls *", "ls 'unclosed"]
)
def test_command_safety_non_plain_script_is_refused(script: str) -> None:
    assert parse_plain_script(script) is None


def test_command_safety_prefixes_look_inside_substitutions_and_stop_at_dynamic_words() -> None:
    prefixes = command_prefixes("echo $(git push origin) > out; rm -rf $DIR/x; FOO=1 make test")
    assert prefixes == [["echo"], ["git", "push", "origin"], ["rm", "-rf"], ["make", "test"]]


@pytest.mark.parametrize(
    ("argv", "script"),
    [
        (["bash", "-lc", "ls"], "ls"),
        (["bash", "-c", "ls"], "ls"),
        (["zsh", "-lc", "ls"], "ls"),
        (["sh", "-c", "ls"], "ls"),
        (["/usr/bin/bash", "-lc", "ls"], "ls"),
        (["bash", "-lc"], None),
        (["bash", "-lc", "ls", "x"], None),
        (["bash", "-i", "ls"], None),
        (["/tmp/bash", "-lc", "ls"], None),
        (["python", "-c", "ls"], None),
    ],
)
def test_command_safety_shell_wrapper_detection(argv: list[str], script: str | None) -> None:
    assert shell_wrapper_script(argv) == script


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_command_safety_any_script_is_classified_without_error(script: str) -> None:
    result = is_known_safe_command(["bash", "-lc", script])
    plain = parse_plain_script(script)
    assert isinstance(result, bool)
    assert plain is None or all(isinstance(word, str) for argv in plain for word in argv)


@pytest.mark.parametrize("script", ["{\U000ebaab", "echo {\U000ebaab}", "ls \ud800", "echo 😀"])
def test_command_safety_scripts_that_crash_or_cannot_encode_are_not_plain(script: str) -> None:
    # tree-sitter-bash crashed the process on `{` + U+EBAAB; such scripts must just be unsafe.
    assert parse_plain_script(script) is None
    assert not is_known_safe_command(["bash", "-lc", script])
    command_prefixes(script)  # must not raise or crash


def test_command_safety_rules_still_see_commands_around_odd_characters() -> None:
    assert ["git", "push"] in command_prefixes("echo 😀 && git push")
