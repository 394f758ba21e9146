"""What codex knows about model families: context window sizes."""

from __future__ import annotations

_CONTEXT_WINDOWS: tuple[tuple[str, int], ...] = (
    ("gpt-5", 272_000),
    ("codex-", 272_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("o3", 200_000),
    ("o4-mini", 200_000),
    ("gpt-oss", 131_072),
)


_REASONING_PREFIXES = ("gpt-5", "codex-", "o1", "o3", "o4", "gpt-oss")


def supports_reasoning(model: str) -> bool:
    """Whether requests for `model` may carry reasoning effort and summary settings."""
    return model.startswith(_REASONING_PREFIXES)


def context_window_for(model: str) -> int | None:
    """The context window of a known model family, else None."""
    for prefix, window in _CONTEXT_WINDOWS:
        if model.startswith(prefix):
            return window
    return None
