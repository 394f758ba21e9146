"""Keys the Codex CLI knows that this codex does not implement yet: warned about, then dropped.

Start-up never stops for them (whatever their value): each present key gets one warning that
names it, and nothing downstream sees it.
"""

from __future__ import annotations

from typing import Any

from codex_core.config.errors import render_key

NOT_IMPLEMENTED: tuple[tuple[str, ...], ...] = (
    ("model_max_output_tokens",),  # Codex 0.169 ignores it too and sends no max_output_tokens
    ("disable_response_storage",),  # likewise ignored by 0.169; requests always send store=false
    ("show_raw_agent_reasoning",),
    ("file_opener",),
)
PROFILE_NOT_IMPLEMENTED = ("disable_response_storage",)


def drop_unsupported_keys(data: dict[str, Any]) -> list[str]:
    """Remove the not-implemented keys from a parsed config table; one warning per key found."""
    warnings: list[str] = []
    for path in NOT_IMPLEMENTED:
        if _pop(data, path):
            warnings.append(_warning(path))
    profiles = data.get("profiles")
    if isinstance(profiles, dict):
        for name, profile in profiles.items():
            if not isinstance(profile, dict):
                continue
            for key in PROFILE_NOT_IMPLEMENTED:
                if profile.pop(key, None) is not None:
                    warnings.append(_warning(("profiles", name, key)))
    return warnings


def _pop(table: dict[str, Any], path: tuple[str, ...]) -> bool:
    for part in path[:-1]:
        inner = table.get(part)
        if not isinstance(inner, dict):
            return False
        table = inner
    if path[-1] not in table:
        return False
    del table[path[-1]]
    return True


def _warning(path: tuple[str, ...]) -> str:
    return f"config key `{render_key(path)}` is not supported by this codex yet (ignored)"
