"""Agent skills as Codex CLI 0.169 finds and offers them: `SKILL.md` folders in known roots.

- `loader`: the roots (CODEX_HOME, `~/.agents`, the repository's `.codex` and `.agents`
  folders), each `SKILL.md`'s frontmatter, `[skills]` config that turns skills off.
- `render`: the `<skills_instructions>` list the model gets, within the context budget,
  and the `<skill>` message a `$name` mention injects.

Loaded once per session, on the first turn (not on the start-up path).
"""

from __future__ import annotations

from codex_core.skills.loader import Skill, SkillSet, load_skills
from codex_core.skills.render import mentioned_skill_messages, skills_instructions

__all__ = ["Skill", "SkillSet", "load_skills", "mentioned_skill_messages", "skills_instructions"]
