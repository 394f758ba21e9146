"""Terminal frontends of codex: CLI parsing, the Textual app and `codex exec` output."""
