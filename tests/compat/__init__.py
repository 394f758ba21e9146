"""Side by side with the Codex CLI 0.169 (`codex-rust`): formats and behaviour both ways."""
