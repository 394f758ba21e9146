"""Recording a project's trust in the test's CODEX_HOME, so the TUI opens without asking."""

from __future__ import annotations

import os
from pathlib import Path


def trust_project(project: Path, level: str = "trusted", codex_home: Path | None = None) -> None:
    """Append `[projects."<project>"] trust_level = level` to CODEX_HOME/config.toml."""
    home = codex_home or Path(os.environ["CODEX_HOME"])
    with (home / "config.toml").open("a", encoding="utf-8") as config:
        config.write(f'\n[projects."{project}"]\ntrust_level = "{level}"\n')
