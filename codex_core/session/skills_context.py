"""A session's skills as model input: loaded on the first turn, off the start-up path.

The `<skills_instructions>` list opens a conversation as a developer message (before the
environment, as Codex CLI 0.169 sends it); each `$name` a prompt mentions adds that skill's
`<skill>` user message right after the prompt. Skills are read again only when a turn runs
in another directory.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from codex_core.config import Config
from codex_core.protocol import BackgroundEvent, EventMsg, Message, WarningEvent
from codex_core.protocol.items import InputText
from codex_core.skills import SkillSet, load_skills, mentioned_skill_messages, skills_instructions


class SessionSkills:
    """The skills of one session."""

    def __init__(self, config: Config) -> None:
        self._config = config
        self._cwd: Path | None = None
        self._skills = SkillSet()

    async def load(self, cwd: Path, emit: Callable[[EventMsg], None]) -> None:
        """Read the skills for `cwd` (once per directory); say which files were skipped."""
        if self._cwd == cwd:
            return
        config = self._config
        self._skills = await asyncio.to_thread(
            load_skills, config.codex_home, cwd, config.skills, plugins=config.plugins
        )
        self._cwd = cwd
        for problem in self._skills.problems:
            emit(BackgroundEvent(message=problem))

    def instructions(
        self, context_window: int | None, emit: Callable[[EventMsg], None]
    ) -> Message | None:
        """The developer message listing the skills, or None when there are none."""
        text, warning = skills_instructions(self._skills, context_window)
        if warning is not None:
            emit(WarningEvent(message=warning))
        if text is None:
            return None
        return Message(role="developer", content=[InputText(text=text)])

    def mentioned(self, prompt: str) -> list[Message]:
        """One user message per skill `prompt` names as `$name`."""
        return [
            Message(role="user", content=[InputText(text=text)])
            for text in mentioned_skill_messages(self._skills, prompt)
        ]
