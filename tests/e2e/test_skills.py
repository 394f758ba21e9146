"""Agent skills (issue 25, skills part) as Codex CLI 0.169 offers them, through `codex exec`.

The fixtures in tests/fixtures/skills_0169 are what `codex-rust exec` 0.169 sent for the same
trees (recorded side by side against the scripted model server): the `<skills_instructions>`
list with its root aliases, the `<skill>` messages of `$name` mentions, and the budget cuts
for 300 and 1,500 skills.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from codex_core.skills import load_skills, skills_instructions
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "skills_0169"


def write_skill(root: Path, folder: str, name: str | None, description: str | None) -> Path:
    directory = root / folder
    directory.mkdir(parents=True, exist_ok=True)
    head = (f"name: {name}\n" if name else "") + (
        f"description: {description}\n" if description is not None else ""
    )
    (directory / "SKILL.md").write_text(f"---\n{head}---\n\n# {folder}\nBODY-OF-{folder}\n")
    return directory / "SKILL.md"


def recorded_tree(base: Path) -> tuple[Path, Path, Path]:
    """The tree of the recording: skills in every root, a duplicate name, a broken file."""
    codex_home, home, repo = base / "codexhome", base / "home", base / "repo"
    (repo / "sub").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    write_skill(codex_home / "skills", "s-codexhome", "s-codexhome", "Description of s-codexhome")
    write_skill(codex_home / "skills", "zz-noname", None, "No name in frontmatter")
    write_skill(
        home / ".agents/skills", "s-homeagents", "s-homeagents", "Description of s-homeagents"
    )
    write_skill(repo / ".codex/skills", "s-repocodex", "s-repocodex", "Description of s-repocodex")
    write_skill(
        repo / ".agents/skills", "s-repoagents", "s-repoagents", "Description of s-repoagents"
    )
    write_skill(repo / "sub/.agents/skills", "s-sub", "s-sub", "x" * 1100)
    write_skill(repo / ".agents/skills", "a-dup", "dup", "first dup")
    write_skill(codex_home / "skills", "b-dup", "dup", "second dup")
    write_skill(codex_home / "skills", "broken", "broken", None)
    write_skill(codex_home / "skills", "weird", "weird", "[unclosed")
    (codex_home / "config.toml").write_text("[skills.bundled]\nenabled = false\n")
    return codex_home, home, repo


def exec_codex(
    codex_bin: Path, server: ModelServer, codex_home: Path, home: Path, cwd: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "CODEX_HOME": str(codex_home)}
    env["HOME"] = str(home)
    return subprocess.run(
        [str(codex_bin), "exec", *server.cli_flags(), "-m", "mock-model", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def texts(body: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        (item["role"], part["text"])
        for item in body["input"]
        if item.get("type") == "message"
        for part in item["content"]
        if "text" in part
    ]


def test_skills_list_and_mentions_match_0169_byte_for_byte(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    codex_home, home, repo = recorded_tree(tmp_path)
    model_server.add(turn(message("ok")))
    prompt = "use $s-sub, $dup and $s-codexhome and $nosuch"
    done = exec_codex(codex_bin, model_server, codex_home, home, repo / "sub", "--json", prompt)
    assert done.returncode == 0, done.stderr
    sent = texts(model_server.bodies[-1])
    expected_block = (FIXTURES / "roots.txt").read_text().replace("{BASE}", str(tmp_path))
    assert ("developer", expected_block) in sent
    developer = [i for i, (role, _) in enumerate(sent) if role == "developer"]
    environment = next(i for i, (_, t) in enumerate(sent) if t.startswith("<environment_context>"))
    assert developer and developer[0] < environment  # the list opens the conversation
    at = sent.index(("user", prompt))
    injected = json.loads((FIXTURES / "roots_mentions.json").read_text())
    expected = [("user", t.replace("{BASE}", str(tmp_path))) for t in injected]
    assert sent[at + 1 : at + 1 + len(expected)] == expected  # right after the prompt, in order
    # The broken SKILL.md is named on stderr, never in the --json stream (as 0.169).
    assert "broken/SKILL.md" not in done.stdout


def test_skills_broken_file_is_one_line_in_human_output(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    codex_home, home, repo = recorded_tree(tmp_path)
    model_server.add(turn(message("ok")))
    done = exec_codex(codex_bin, model_server, codex_home, home, repo, "hi")
    assert done.returncode == 0, done.stderr
    named = [line for line in done.stderr.splitlines() if "broken/SKILL.md" in line]
    assert named == [
        f"failed to load skill {codex_home}/skills/broken/SKILL.md: missing field `description`"
    ]
    assert "Traceback" not in done.stderr


def test_skills_budget_for_300_and_1500_skills_matches_0169(tmp_path: Path) -> None:
    for count, length in ((300, 480), (1500, 100)):
        codex_home = tmp_path / f"home-{count}"
        for index in range(count):
            text = (f"skill {index} " + "lorem ipsum dolor sit amet " * 100)[:length]
            write_skill(codex_home / "skills", f"sk{index:04d}", f"sk{index:04d}", text)
        project = tmp_path / f"project-{count}"
        project.mkdir()
        skills = load_skills(codex_home, project, {}, home=tmp_path / "nohome")
        text, warning = skills_instructions(skills, None)  # an unknown model: 0.169's fallback
        recorded = (FIXTURES / f"budget_{count}x{length}.txt").read_text()
        assert text == recorded.replace("{ROOT}", str(codex_home / "skills"))
        if count == 300:
            assert warning is None  # every skill listed, descriptions shortened
        else:
            assert warning == (
                "Exceeded skills context budget. All skill descriptions were removed and 956 "
                "additional skills were not included in the model-visible skills list."
            )


def test_skills_budget_warning_reaches_json_as_an_error_item(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    codex_home, home, project = tmp_path / "ch", tmp_path / "h", tmp_path / "p"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    for index in range(700):
        write_skill(codex_home / "skills", f"sk{index:04d}", f"sk{index:04d}", "d" * 50)
    model_server.add(turn(message("ok")))
    done = exec_codex(codex_bin, model_server, codex_home, home, project, "--json", "hi")
    assert done.returncode == 0, done.stderr
    items = [json.loads(line).get("item", {}) for line in done.stdout.splitlines()]
    errors = [i["message"] for i in items if i.get("type") == "error"]
    assert any(e.startswith("Exceeded skills context budget.") for e in errors), errors


def test_skills_turned_off_by_config_are_neither_listed_nor_injected(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    codex_home, home, project = tmp_path / "ch", tmp_path / "h", tmp_path / "p"
    project.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    by_path = write_skill(codex_home / "skills", "off-by-path", "off-by-path", "gone")
    write_skill(codex_home / "skills", "off-by-name", "off-by-name", "gone too")
    write_skill(codex_home / "skills", "kept", "kept", "still here")
    write_skill(codex_home / "skills" / ".system", "bundled-one", "bundled-one", "bundled")
    (codex_home / "config.toml").write_text(
        "[skills.bundled]\nenabled = false\n"
        f'[[skills.config]]\npath = "{by_path}"\nenabled = false\n'
        '[[skills.config]]\nname = "off-by-name"\nenabled = false\n'
    )
    model_server.add(turn(message("ok")))
    prompt = "$off-by-path $off-by-name $bundled-one $kept"
    done = exec_codex(codex_bin, model_server, codex_home, home, project, prompt)
    assert done.returncode == 0, done.stderr
    sent = "\n".join(t for _, t in texts(model_server.bodies[-1]))
    assert "- kept: still here (file: r0/kept/SKILL.md)" in sent
    for gone in ("off-by-path", "off-by-name", "bundled-one"):
        assert f"- {gone}:" not in sent and f"<name>{gone}</name>" not in sent
    assert "<name>kept</name>" in sent


def test_skills_none_sends_no_list(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    project, codex_home = tmp_path / "p", tmp_path / "ch"
    project.mkdir()
    codex_home.mkdir()
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    model_server.add(turn(message("ok")))
    done = exec_codex(codex_bin, model_server, codex_home, tmp_path / "h", project, "$x hi")
    assert done.returncode == 0, done.stderr
    assert not any("skill" in t[:30] for _, t in texts(model_server.bodies[-1]))
