"""Local plugins as Codex CLI 0.169 has them: marketplaces, installs, and what a plugin adds.

A marketplace is a directory (a local one, or a git clone under CODEX_HOME) holding
`.agents/plugins/marketplace.json`; a plugin is a directory with `.codex-plugin/plugin.json`.
`codex plugin add NAME@MARKETPLACE` copies it to `CODEX_HOME/plugins/cache/<marketplace>/
<name>/<version>` and records `[plugins."NAME@MARKETPLACE"] enabled = true`; sessions read
that copy only — its skills, MCP servers and hooks join the user's own (hooks still need
trust). Every name that becomes a path is checked (ASCII letters, digits, `_`, `-`), and
nothing is written outside CODEX_HOME's plugin directories.
"""

from codex_core.plugins.names import PluginError

__all__ = ["PluginError"]
