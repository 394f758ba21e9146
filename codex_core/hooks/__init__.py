"""Lifecycle hooks as Codex CLI 0.169 runs them: the user's own programs at fixed points.

- `catalog`: where hooks come from (`$CODEX_HOME/hooks.json`, `[hooks]` in config.toml, a
  trusted project's `.codex/hooks.json`), their keys, trust hashes and `[hooks.state]`.
- `matching`: which tool calls a group's `matcher` selects, under the names hooks see.
- `runner`: one hook process — the payload on stdin, a timeout that kills its process group.
- `outcome`: what a hook's exit code and output mean for its event.
- `engine`: a session's hooks — run the matching ones concurrently, report each run as
  events, and fold their results into one answer for the caller.

Hooks run on the host, outside the sandbox, as the user's programs; the model cannot write
their sources or the trust record (both stay read-only in every sandbox).
"""

from __future__ import annotations
