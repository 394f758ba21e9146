"""The `.gitignore` matcher of the `@` file walk outside git."""

from __future__ import annotations

from codex_tui.app.gitignore import ignored, parse


def test_gitignore_patterns_as_git_reads_them() -> None:
    rules = parse("# c\n\n*.log\n!keep.log\n/build/\ndocs/*.md\n**/tmp\nnode_modules/\na?c\n")
    cases = {
        ("x.log", False): True,
        ("sub/x.log", False): True,
        ("keep.log", False): False,
        ("build", True): True,
        ("sub/build", True): False,
        ("build", False): False,
        ("docs/a.md", False): True,
        ("docs/sub/a.md", False): False,
        ("deep/er/tmp", True): True,
        ("x/node_modules", True): True,
        ("abc", False): True,
        ("abbc", False): False,
    }
    assert {case: ignored(rules, *case) for case in cases} == cases


def test_gitignore_rules_of_a_subdirectory_apply_below_it_only() -> None:
    rules = parse("gen/\n", base="src")
    assert ignored(rules, "src/gen", True)
    assert ignored(rules, "src/x/gen", True)
    assert not ignored(rules, "gen", True)
