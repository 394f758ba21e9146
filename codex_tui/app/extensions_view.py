"""What `/hooks` and `/skills` show and do: the session's hooks with their trust, its skills.

Read from the same sources the core uses (`codex_core.hooks`, `codex_core.skills`) in the
UI process; trust and on/off changes are written to config.toml with tomlkit, in the
`[hooks.state]` record Codex CLI 0.169 keeps too. A hook's number is its place in the list.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from codex_core.config import Config, ConfigOverrides, load_config
from codex_core.config.errors import ConfigError
from codex_core.frontend.git import find_git_root
from codex_core.hooks.catalog import HookCatalog, HookDef
from codex_core.hooks.sources import load_hooks
from codex_core.plugins.names import PluginError
from codex_core.skills import load_skills
from codex_core.terminal_text import printable

Row = tuple[str, str]
ACTIONS = ("trust", "untrust", "enable", "disable")
HOOKS_USAGE = "/hooks [trust|untrust|enable|disable N|all]"


@dataclass
class HooksView:
    """The hooks of a directory, as `/hooks` lists them."""

    config: Config
    catalog: HookCatalog

    @classmethod
    def load(cls, codex_home: Path, cwd: Path) -> HooksView:
        """Hooks for `cwd` (a trusted project's included)."""
        config = load_config(ConfigOverrides(cwd=cwd), [], codex_home=codex_home)
        root = find_git_root(cwd) or cwd
        trusted = config.project_trust_level(root) == "trusted"
        catalog = load_hooks(codex_home, config.hooks, root if trusted else None, config.plugins)
        return cls(config, catalog)

    def state(self, hook: HookDef) -> str:
        """`trusted`, `needs review`, `changed since trusted` or `disabled`."""
        if not self.catalog.enabled(hook):
            return "disabled"
        return {
            "trusted": "trusted",
            "untrusted": "needs review",
            "modified": "changed since trusted",
        }[self.catalog.trust(hook)]

    def needing_review(self) -> int:
        """How many enabled hooks will not run until trusted."""
        return sum(
            1
            for h in self.catalog.hooks
            if self.state(h) in ("needs review", "changed since trusted")
        )

    def rows(self) -> list[Row]:
        """One block per hook: state and event, then command, matcher and source."""
        rows: list[Row] = []
        for number, hook in enumerate(self.catalog.hooks, start=1):
            rows.append((str(number), f"{hook.event.name} — {self.state(hook)}"))
            rows.append(("", printable(hook.command)))
            if hook.matcher is not None:
                rows.append(("", f"matcher {printable(hook.matcher)}"))
            where = f"plugin {hook.plugin.plugin_id}" if hook.plugin else hook.source
            rows.append(("", f"{where}: {hook.source_path}"))
        return rows

    def apply(self, action: str, target: str) -> str:
        """Trust, untrust, enable or disable hook `target` (a number, or `all`)."""
        hooks = self.catalog.hooks
        if target == "all":
            chosen = list(hooks)
        elif target.isdigit() and 1 <= int(target) <= len(hooks):
            chosen = [hooks[int(target) - 1]]
        else:
            return f"no hook {target!r}; numbers go from 1 to {len(hooks)} ({HOOKS_USAGE})"
        from codex_core.config.edit import set_hook_state  # tomlkit: only when a hook changes

        home = self.config.codex_home
        try:
            for hook in chosen:
                if action == "trust":
                    set_hook_state(home, hook.key, trusted_hash=hook.current_hash)
                    if hook.plugin is not None and not hook.plugin.pinned:
                        from codex_core.plugins.store import write_pin

                        # the user reviewed the plugin as it is now
                        write_pin(home, hook.plugin.plugin_id, hook.plugin.content_hash)
                elif action == "untrust":
                    set_hook_state(home, hook.key, trusted_hash=None)
                else:
                    set_hook_state(home, hook.key, enabled=action == "enable")
        except (ConfigError, PluginError) as err:
            return str(err)
        done = {
            "trust": "trusted",
            "untrust": "untrusted",
            "enable": "enabled",
            "disable": "disabled",
        }
        count = f"{len(chosen)} hooks" if len(chosen) != 1 else "1 hook"
        return f"{count} {done[action]}; new sessions pick this up"


def skills_rows(codex_home: Path, cwd: Path) -> tuple[list[Row], str | None]:
    """`/skills`: each skill (name, description, file), then the roots searched."""
    config = load_config(ConfigOverrides(cwd=cwd), [], codex_home=codex_home)
    found = load_skills(codex_home, cwd, config.skills, plugins=config.plugins)
    rows: list[Row] = [
        (printable(skill.name), f"{printable(skill.description)}\n{skill.path}")
        for skill in found.skills
    ]
    rows += [(printable(s.name), f"(turned off in config.toml)\n{s.path}") for s in found.disabled]
    rows += [("!", printable(problem)) for problem in found.problems]
    note = "type $name in a message to hand Codex a skill" if found.skills else None
    if not rows:
        rows = [("", "no skills: put SKILL.md folders in ~/.codex/skills or .agents/skills")]
    return rows, note


def hooks_review_notice(codex_home: Path, cwd: Path) -> str | None:
    """The start-up line when some hooks will not run until the user reviews them."""
    try:
        waiting = HooksView.load(codex_home, cwd).needing_review()
    except (ConfigError, OSError):
        return None
    if not waiting:
        return None
    hooks = "hook needs" if waiting == 1 else "hooks need"
    return f"{waiting} {hooks} review before running; /hooks lists them, /hooks trust N trusts one"
