"""The project's own docs stay inside the project and name paths that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "DESIGN.md", "ARCHITECTURE.md")


def layout_paths(text: str) -> list[str]:
    """Paths in ARCHITECTURE.md's layout block: top-level names, and indented names under
    the last top-level directory (`a/, b/` lists several)."""
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    paths: list[str] = []
    parent = ""
    for line in block.splitlines():
        if not line.strip():
            continue
        indented = line.startswith(" ")
        names = line.strip().split("  ")[0]
        for name in (n.strip() for n in names.split(",")):
            if not re.fullmatch(r"[\w.-]+/?", name):
                continue
            if indented:
                paths.append(parent + name)
            else:
                paths.append(name)
                parent = name if name.endswith("/") else parent
    return paths


def test_docs_architecture_layout_names_paths_that_exist() -> None:
    paths = layout_paths((ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    assert len(paths) > 25
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_docs_architecture_code_paths_exist() -> None:
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:codex_core|codex_tui|sandbox_helper|tests)/[\w./]+)`", text))
    assert named and [p for p in sorted(named) if not (ROOT / p).exists()] == []


def test_docs_link_only_to_files_in_the_repository() -> None:
    for doc in DOCS:
        text = (ROOT / doc).read_text(encoding="utf-8")
        assert "../shared/DESIGN.md" not in text, doc
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" in target:
                continue
            assert (ROOT / target).resolve().is_relative_to(ROOT), (doc, target)
            assert (ROOT / target).exists(), (doc, target)
