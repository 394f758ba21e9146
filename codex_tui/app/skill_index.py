"""The skills the `$` popup offers: read once per directory in a worker thread, then
searched by fuzzy name (the description shows beside each)."""

from __future__ import annotations

import threading
from pathlib import Path

from codex_core.terminal_text import printable
from codex_tui.app.fuzzy import fuzzy_filter


class SkillIndex:
    """Skills for one working directory."""

    def __init__(self, codex_home: str | None, cwd: Path) -> None:
        self.codex_home = codex_home
        self.cwd = cwd
        self.done = threading.Event()
        self._skills: dict[str, str] = {}

    def load(self) -> None:
        """Read the skills (in a worker thread); a broken config leaves the list empty."""
        from codex_core.config import ConfigOverrides, load_config
        from codex_core.config.errors import ConfigError
        from codex_core.frontend.home import codex_home_dir
        from codex_core.skills import load_skills

        try:
            home = Path(self.codex_home or codex_home_dir())
            config = load_config(ConfigOverrides(cwd=self.cwd), [], codex_home=home)
            found = load_skills(home, self.cwd, config.skills, plugins=config.plugins)
            self._skills = {s.name: s.description for s in found.skills}
        except (ConfigError, OSError, ValueError):
            self._skills = {}
        finally:
            self.done.set()

    def search(self, query: str, limit: int) -> list[tuple[str, str, str]]:
        """(name, `$name`, description) rows best matching `query`."""
        names = fuzzy_filter(query, self._skills, limit) if query else sorted(self._skills)[:limit]
        return [(n, f"${printable(n)}", printable(self._skills[n])) for n in names]
