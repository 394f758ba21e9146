"""`codex acp`: a native Agent Client Protocol agent (the official `acp` SDK) over Session.

Modules: `modes` (read-only / auto / full-access presets), `updates` (session events →
ACP session updates, pure), `agent` (the Agent: sessions, prompts, permissions), `cli`.
"""
