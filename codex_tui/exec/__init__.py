"""`codex exec`: its arguments (`cli`), the headless run (`run`), the human and JSONL renderers.

No textual or rich here: `codex exec` must start without the TUI's libraries.
"""
