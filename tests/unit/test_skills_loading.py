"""Skill files and mentions: the cases seen from Codex CLI 0.169 (codex-rust exec, recorded
side by side): block and quoted descriptions, nested and hidden folders, empty roots,
byte-order sorting, and which `$name` spellings inject."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.skills import load_skills, mentioned_skill_messages, skills_instructions
from codex_core.skills.frontmatter import FrontmatterError, parse_frontmatter


def skill(directory: Path, name: str, description: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    text = f"---\nname: {name}\ndescription: {description}\n---\nbody of {name}\n"
    (directory / "SKILL.md").write_text(text)


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    codex_home, project = tmp_path / "ch", tmp_path / "p"
    skills = codex_home / "skills"
    skill(skills / "group" / "nested", "nested", "nested one")
    skill(skills / ".hidden" / "x", "hidden", "hidden one")
    skill(skills / "s.dot", "s.dot", "dotted")
    skill(skills / "paren", "paren", '"quoted desc: with colon"')
    skill(skills / "blk", "blk", "|\n  line one\n  line two")
    skill(skills / "Upper", "Upper", "upper case")
    (project / ".codex" / "skills").mkdir(parents=True)  # an empty root
    (tmp_path / "h" / ".agents" / "skills").mkdir(parents=True)  # another one
    return codex_home, project


def test_skills_list_as_0169_lists_them(tree: tuple[Path, Path], tmp_path: Path) -> None:
    codex_home, project = tree
    skills = load_skills(codex_home, project, {}, home=tmp_path / "h")
    text, warning = skills_instructions(skills, None)
    assert warning is None and text is not None
    listed = text.split("### Skill roots\n", 1)[1]
    assert listed == (
        f"- `r0` = `{codex_home}/skills`\n"
        "### Available skills\n"
        "- Upper: upper case (file: r0/Upper/SKILL.md)\n"
        "- blk: line one line two (file: r0/blk/SKILL.md)\n"
        "- nested: nested one (file: r0/group/nested/SKILL.md)\n"
        "- paren: quoted desc: with colon (file: r0/paren/SKILL.md)\n"
        "- s.dot: dotted (file: r0/s.dot/SKILL.md)\n"
        "</skills_instructions>"
    )


def test_skills_mentions_inject_in_listing_order(tree: tuple[Path, Path], tmp_path: Path) -> None:
    codex_home, project = tree
    skills = load_skills(codex_home, project, {}, home=tmp_path / "h")
    messages = mentioned_skill_messages(skills, "x ($paren) $s.dot. $nested's $upper $blk")
    names = [m.split("<name>", 1)[1].split("</name>", 1)[0] for m in messages]
    assert names == ["blk", "nested", "paren"]  # not s.dot (a dot ends a name), not Upper
    path = codex_home / "skills" / "blk" / "SKILL.md"
    assert (
        messages[0]
        == f"<skill>\n<name>blk</name>\n<path>{path}</path>\n{path.read_text()}\n</skill>"
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("no frontmatter\n", "missing YAML frontmatter delimited by ---"),
        ("---\nname: x\n", "missing YAML frontmatter delimited by ---"),
    ],
)
def test_skills_frontmatter_errors_say_what_is_missing(text: str, reason: str) -> None:
    with pytest.raises(FrontmatterError, match=reason):
        parse_frontmatter(text)


def test_skills_frontmatter_scalars() -> None:
    text = (
        "---\nname: 'it''s'\ndescription: >-\n  folded\n  text\n"
        'other: "a\\"b"\nplain: one\n  two\n---\n'
    )
    assert parse_frontmatter(text) == {
        "name": "it's",
        "description": "folded\ntext",
        "other": 'a"b',
        "plain": "one two",
    }


def test_skills_problems_and_config_selectors(tmp_path: Path) -> None:
    codex_home = tmp_path / "ch"
    (codex_home / "skills" / "bad").mkdir(parents=True)
    (codex_home / "skills" / "bad" / "SKILL.md").write_text("no frontmatter")
    config = {"config": [{"enabled": False}, {"path": "/x", "name": "y", "enabled": False}]}
    skills = load_skills(codex_home, tmp_path, config, home=tmp_path / "h")
    assert skills.skills == []
    assert skills.problems == [
        "ignoring skills.config entry without a path or name selector",
        "ignoring skills.config entry with both path and name selectors",
        f"failed to load skill {codex_home}/skills/bad/SKILL.md: "
        "missing YAML frontmatter delimited by ---",
    ]


def test_skills_loading_hides_a_skill_its_metadata_keeps_from_implicit_use(tmp_path: Path) -> None:
    """`agents/openai.yaml` `policy: allow_implicit_invocation: false` (0.169's bundled
    review-agent has it): not in the model's list, still found for `$name`."""

    home = tmp_path / "home"
    for name in ("shown", "hidden"):
        (home / "skills" / name).mkdir(parents=True)
        (home / "skills" / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {name} skill\n---\n"
        )
    agents = home / "skills" / "hidden" / "agents"
    agents.mkdir()
    (agents / "openai.yaml").write_text(
        'interface:\n  display_name: "Hidden"\npolicy:\n  allow_implicit_invocation: false\n'
    )
    found = load_skills(home, tmp_path, {}, home=tmp_path / "nohome")
    assert [(s.name, s.implicit) for s in found.skills] == [("hidden", False), ("shown", True)]
    text, _ = skills_instructions(found, None)
    assert text is not None and "- shown: shown skill" in text and "hidden" not in text
