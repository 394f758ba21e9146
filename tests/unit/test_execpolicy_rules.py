"""Reading `.rules` files, matching commands, appending allow rules, suggesting prefixes."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codex_core.execpolicy import (
    PrefixRule,
    RuleMatch,
    RuleSet,
    append_allow_rule,
    load_rules,
    parse_rules,
    suggest_prefix,
)

RULES = """\
# user rules
prefix_rule(pattern=["git", "push"], decision="prompt")
prefix_rule(
    pattern=["git", ["status", "log"]],   # alternatives
    match=["git status -s", ["git", "log"]],
    not_match=["git push"],
)
prefix_rule(pattern=["rm"], decision="forbidden", justification="use trash instead")
prefix_rule(pattern=['npm', 'test'], decision='allow',)
"""


def write_rules(codex_home: Path, name: str, text: str) -> Path:
    """Write one rules file under CODEX_HOME/rules."""
    path = codex_home / "rules" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_execpolicy_parses_rules_with_defaults_and_sources() -> None:
    parsed = parse_rules(RULES, "user.rules")
    assert parsed.warnings == []
    assert parsed.rules == [
        PrefixRule((("git",), ("push",)), "prompt", None, "user.rules:2"),
        PrefixRule((("git",), ("status", "log")), "allow", None, "user.rules:3"),
        PrefixRule((("rm",),), "forbidden", "use trash instead", "user.rules:8"),
        PrefixRule((("npm",), ("test",)), "allow", None, "user.rules:9"),
    ]


@pytest.mark.parametrize(
    ("argv", "decision", "source"),
    [
        (["git", "push", "origin", "main"], "prompt", "user.rules:2"),
        (["git", "status"], "allow", "user.rules:3"),
        (["git", "log", "-n", "1"], "allow", "user.rules:3"),
        (["rm", "-rf", "x"], "forbidden", "user.rules:8"),
        (["npm", "test"], "allow", "user.rules:9"),
        (["bash", "-lc", "git status && npm test"], "allow", "user.rules:3"),
        (["bash", "-lc", "npm test && rm -rf dist"], "forbidden", "user.rules:8"),
        (["bash", "-lc", "echo $(git push)"], "prompt", "user.rules:2"),
        (["bash", "-lc", "git log > out && rm x"], "forbidden", "user.rules:8"),
    ],
)
def test_execpolicy_match_picks_strictest_rule(argv: list[str], decision: str, source: str) -> None:
    match = RuleSet(parse_rules(RULES, "user.rules").rules).match(argv)
    assert match is not None
    assert (match.decision, match.source) == (decision, source)


@pytest.mark.parametrize(
    "argv",
    [
        ["git"],
        ["git", "fetch"],
        ["npm", "install"],
        ["gitx", "push"],
        ["bash", "-lc", "git status && ls"],
        ["bash", "-lc", "git status > out"],
    ],
)
def test_execpolicy_no_match_returns_none(argv: list[str]) -> None:
    assert RuleSet(parse_rules(RULES, "user.rules").rules).match(argv) is None


def test_execpolicy_match_reports_rule_text() -> None:
    match = RuleSet(parse_rules(RULES, "u.rules").rules).match(["rm", "x"])
    assert match == RuleMatch(
        decision="forbidden",
        rule_text='prefix_rule(pattern=["rm"], decision="forbidden")',
        source="u.rules:8",
        justification="use trash instead",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('prefix_rule(pattern=["x"], decision="maybe")', 'a.rules:1: decision must be "allow"'),
        (
            'prefix_rule(pattern=[], decision="allow")',
            "a.rules:1: pattern must be a non-empty list",
        ),
        ('prefix_rule(decision="allow")', "a.rules:1: pattern must be a non-empty list"),
        ('prefix_rule(pattern=["x"], colour="red")', "a.rules:1: unknown argument 'colour'"),
        (
            'prefix_rule(pattern=["x]',
            "a.rules:1: expected a string or a list but found unterminated",
        ),
        ('allow("git status")', "a.rules:1: expected prefix_rule(...) but found 'allow'"),
        ('prefix_rule(pattern=[["a", ["b"]]])', "a.rules:1: each pattern element must be"),
        ('prefix_rule(pattern=["x"], decision=allow)', "a.rules:1: expected a string or a list"),
        ('import os\nprefix_rule(pattern=["x"])', "a.rules:1: expected prefix_rule(...)"),
        (
            'prefix_rule(pattern=["x"]) $',
            "a.rules:1: expected prefix_rule(...) but found unexpected",
        ),
    ],
)
def test_execpolicy_bad_rule_gives_one_line_warning(text: str, message: str) -> None:
    parsed = parse_rules(text, "a.rules")
    assert len(parsed.warnings) == 1
    assert parsed.warnings[0].startswith(message)
    assert "\n" not in parsed.warnings[0]


def test_execpolicy_bad_rule_is_skipped_and_later_rules_still_load() -> None:
    text = (
        'prefix_rule(pattern=["a"]\n'
        'prefix_rule(pattern=["b"], decision="oops")\n'
        'prefix_rule(pattern=["c"], decision="prompt")\n'
    )
    parsed = parse_rules(text, "f.rules")
    assert [w.split(":")[1] for w in parsed.warnings] == ["1", "2"]
    assert [rule.source for rule in parsed.rules] == ["f.rules:3"]


def test_execpolicy_failing_examples_skip_allow_but_keep_stricter_rules() -> None:
    text = (
        'prefix_rule(pattern=["npm", "test"], match=["npm run"])\n'
        'prefix_rule(pattern=["curl"], decision="forbidden", not_match=["curl -s x"])\n'
    )
    parsed = parse_rules(text, "f.rules")
    assert [rule.source for rule in parsed.rules] == ["f.rules:2"]
    assert parsed.warnings == [
        "f.rules:1: example 'npm run' does not match the pattern; skipped this rule",
        "f.rules:2: not_match example 'curl -s x' matches the pattern; "
        "kept it because it only makes approval stricter",
    ]


def test_execpolicy_load_rules_reads_every_file_in_name_order(codex_home: Path) -> None:
    write_rules(codex_home, "b.rules", 'prefix_rule(pattern=["ls"], decision="prompt")\n')
    write_rules(codex_home, "a.rules", 'prefix_rule(pattern=["ls"], decision="prompt")\nbroken\n')
    write_rules(codex_home, "notes.txt", 'prefix_rule(pattern=["ls"], decision="forbidden")\n')
    rules = load_rules(codex_home)
    assert [rule.source for rule in rules.rules] == [
        f"{codex_home}/rules/a.rules:1",
        f"{codex_home}/rules/b.rules:1",
    ]
    assert len(rules.warnings) == 1 and rules.warnings[0].startswith(
        f"{codex_home}/rules/a.rules:2:"
    )
    match = rules.match(["ls"])
    assert match is not None and match.source.endswith("a.rules:1")


def test_execpolicy_load_rules_without_rules_dir_is_empty(codex_home: Path) -> None:
    assert load_rules(codex_home) == RuleSet()


def test_execpolicy_non_utf8_file_is_a_warning(codex_home: Path) -> None:
    path = codex_home / "rules" / "bad.rules"
    path.parent.mkdir()
    path.write_bytes(b"\xff\xfe prefix_rule")
    rules = load_rules(codex_home)
    assert rules.rules == [] and rules.warnings == [f"{path}: not UTF-8 text; save it as UTF-8"]


def test_execpolicy_append_allow_rule_creates_file_and_round_trips(codex_home: Path) -> None:
    path = append_allow_rule(codex_home, ["git", "push"])
    assert path == codex_home / "rules" / "default.rules"
    append_allow_rule(codex_home, ["echo", 'say "hi"\\', "caf\u00e9"])
    assert path.read_text(encoding="utf-8").splitlines()[0] == (
        'prefix_rule(pattern=["git", "push"], decision="allow")'
    )
    rules = load_rules(codex_home)
    assert rules.warnings == []
    assert [r.pattern for r in rules.rules] == [
        (("git",), ("push",)),
        (("echo",), ('say "hi"\\',), ("caf\u00e9",)),
    ]
    match = rules.match(["git", "push", "origin"])
    assert match is not None and match.decision == "allow"


def test_execpolicy_append_keeps_existing_rules_without_trailing_newline(codex_home: Path) -> None:
    path = write_rules(
        codex_home, "default.rules", 'prefix_rule(pattern=["ls"], decision="prompt")'
    )
    append_allow_rule(codex_home, ["npm", "test"])
    assert path.read_text(encoding="utf-8").splitlines() == [
        'prefix_rule(pattern=["ls"], decision="prompt")',
        'prefix_rule(pattern=["npm", "test"], decision="allow")',
    ]


def test_execpolicy_append_refuses_empty_prefix(codex_home: Path) -> None:
    with pytest.raises(ValueError):
        append_allow_rule(codex_home, [])


@pytest.mark.parametrize(
    ("argv", "prefix"),
    [
        (["git", "push", "origin", "main"], ["git", "push"]),
        (["npm", "test"], ["npm", "test"]),
        (["cargo", "build", "--release"], ["cargo", "build"]),
        (["ls", "-la"], ["ls"]),
        (["pytest", "tests/unit"], ["pytest"]),
        (["make"], ["make"]),
        (["bash", "-lc", "npm run build"], ["npm", "run"]),
        (["python", "script.py"], None),
        (["sudo", "apt", "install"], None),
        (["bash", "-lc", "npm test && rm -rf dist"], None),
        (["bash", "-lc", "echo $(whoami)"], None),
        (["./scripts/deploy.sh"], None),
        ([], None),
    ],
)
def test_execpolicy_suggest_prefix(argv: list[str], prefix: list[str] | None) -> None:
    assert suggest_prefix(argv) == prefix


def test_execpolicy_empty_and_triple_quoted_strings_keep_line_numbers() -> None:
    text = (
        'prefix_rule(pattern=["echo", ""], justification="""two\n'
        'lines""")\n'
        'prefix_rule(pattern=["x"], decision="prompt")\n'
    )
    parsed = parse_rules(text, "f.rules")
    assert parsed.warnings == []
    assert parsed.rules == [
        PrefixRule((("echo",), ("",)), "allow", "two\nlines", "f.rules:1"),
        PrefixRule((("x",),), "prompt", None, "f.rules:3"),
    ]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(), min_size=1, max_size=4))
def test_execpolicy_written_rule_reads_back_identically(prefix: list[str]) -> None:
    rule = PrefixRule(tuple((word,) for word in prefix), "allow")
    parsed = parse_rules(rule.text + "\n", "f.rules")
    assert parsed.warnings == []
    assert [r.pattern for r in parsed.rules] == [rule.pattern]


def test_execpolicy_reader_never_evaluates_code(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = (
        f'__import__("os").system("touch {marker}")\n'
        f'prefix_rule(pattern=[open("{marker}", "w").name])\n'
        f'prefix_rule(pattern=["ok"], justification=f"{{__import__(\'os\').getcwd()}}")\n'
        'prefix_rule(pattern=["ls"], decision="prompt")\n'
    )
    parsed = parse_rules(text, "f.rules")
    assert not marker.exists()
    assert [rule.source for rule in parsed.rules] == ["f.rules:4"]
    assert [w.split(": ", 1)[1] for w in parsed.warnings] == [
        "expected prefix_rule(...) but found '__import__'; skipped this rule",
        "expected a string or a list but found 'open'; skipped this rule",
        "expected a string or a list but found 'f'; skipped this rule",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('prefix_rule(pattern=["x"], pattern=["y"])', "a.rules:1: argument 'pattern' given twice"),
        ('prefix_rule(["x"])', "a.rules:1: expected key=value but found '['"),
        ("prefix_rule(**rules)", "a.rules:1: expected key=value but found '**'"),
        ('prefix_rule(pattern=["x"], decision=["allow"])', 'a.rules:1: decision must be "allow"'),
        ('prefix_rule(pattern=[b"x"])', "a.rules:1: expected a string or a list but found 'b'"),
        ('prefix_rule(pattern=["é"],\n  decision=allow)', "a.rules:2: expected a string or a"),
        ("prefix_rule(pattern=['x'])\x00", "a.rules:1: source code string cannot contain null"),
        ('prefix_rule(pattern=["x"]', "a.rules:1: '(' was never closed"),
    ],
)
def test_execpolicy_reader_names_what_is_wrong(text: str, message: str) -> None:
    parsed = parse_rules(text, "a.rules")
    assert len(parsed.warnings) == 1, parsed.warnings
    assert parsed.warnings[0].startswith(message)


def test_execpolicy_reader_takes_starlark_literals_and_layout() -> None:
    text = (
        "  prefix_rule(pattern=('git', r'log\\d'))  # indented, tuple, raw string\r\n"
        'prefix_rule(pattern=["a" "b"], decision="prompt",)\r\n'
    )
    parsed = parse_rules(text, "f.rules")
    assert parsed.warnings == []
    assert parsed.rules == [
        PrefixRule((("git",), ("log\\d",)), "allow", None, "f.rules:1"),
        PrefixRule((("ab",),), "prompt", None, "f.rules:2"),
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "prefix_rule(",
                "pattern=",
                '["x"',
                "]",
                ")",
                ",",
                '"',
                "'''",
                "\n",
                "#",
                "$",
                "é",
                "\x00",
                "  ",
            ]
        ),
        max_size=12,
    ).map("".join)
)
def test_execpolicy_reader_never_raises_and_warns_in_one_line(text: str) -> None:
    parsed = parse_rules(text, "f.rules")
    assert all("\n" not in warning for warning in parsed.warnings)
