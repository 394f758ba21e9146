"""AGENTS.md discovery and the environment context sent to the model."""

from __future__ import annotations

from pathlib import Path

from codex_core.instructions import (
    EnvironmentContext,
    base_instructions,
    project_doc_paths,
    read_project_docs,
)
from codex_core.protocol import ReadOnlyPolicy, WorkspaceWritePolicy


def make_repo(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / ".git" / "objects").mkdir()
    sub = root / "pkg" / "mod"
    sub.mkdir(parents=True)
    return root, sub


def test_instructions_docs_found_from_git_root_down_to_cwd(tmp_path: Path) -> None:
    root, sub = make_repo(tmp_path)
    (tmp_path / "AGENTS.md").write_text("outside the repo: ignored")
    (root / "AGENTS.md").write_text("root rules")
    (root / "pkg" / "mod" / "AGENTS.md").write_text("module rules")
    assert project_doc_paths(sub) == [root / "AGENTS.md", sub / "AGENTS.md"]
    assert read_project_docs(sub) == "root rules\n\nmodule rules"


def test_instructions_docs_outside_a_repo_only_cwd(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("parent")
    child = tmp_path / "child"
    child.mkdir()
    (child / "AGENTS.md").write_text("here")
    assert read_project_docs(child) == "here"


def test_instructions_docs_capped_in_bytes(tmp_path: Path) -> None:
    root, sub = make_repo(tmp_path)
    (root / "AGENTS.md").write_text("a" * 40_000)
    (sub / "AGENTS.md").write_text("never reached")
    text = read_project_docs(sub, max_bytes=32 * 1024)
    assert text == "a" * 32 * 1024
    assert read_project_docs(sub, max_bytes=0) is None


def test_instructions_environment_context_names_policy_and_network(tmp_path: Path) -> None:
    ctx = EnvironmentContext(
        tmp_path, "on-request", WorkspaceWritePolicy(network_access=True), "zsh"
    )
    text = ctx.render()
    assert f"<cwd>{tmp_path}</cwd>" in text
    assert "<approval_policy>on-request</approval_policy>" in text
    assert "<sandbox_mode>workspace-write</sandbox_mode>" in text
    assert "<network_access>enabled</network_access>" in text
    assert "<shell>zsh</shell>" in text
    restricted = EnvironmentContext(tmp_path, "never", ReadOnlyPolicy(), "bash").render()
    assert "<network_access>restricted</network_access>" in restricted


def test_instructions_base_prompt_describes_tools_and_policies() -> None:
    text = base_instructions()
    for word in ("shell", "apply_patch", "update_plan", "workspace-write", "on-request", "never"):
        assert word in text
