"""Terminal notifications (OSC 9) per `tui.notifications`: true, false, or a list of kinds."""

from __future__ import annotations

from typing import Any, Literal

from codex_core.terminal_text import printable

NotificationKind = Literal["agent-turn-complete", "approval-requested"]
MAX_CHARS = 200


def wants(setting: bool | list[str], kind: NotificationKind) -> bool:
    """Whether the setting asks for this kind of notification."""
    if isinstance(setting, bool):
        return setting
    return kind in setting


def osc9(text: str) -> str:
    """The escape sequence that asks the terminal to show `text` as a notification."""
    clean = " ".join(printable(text).split())  # nothing in it can end the sequence
    if len(clean) > MAX_CHARS:
        clean = clean[: MAX_CHARS - 1] + "…"
    return f"\x1b]9;{clean}\x07"


def send(app: Any, setting: bool | list[str], kind: NotificationKind, text: str) -> None:
    """Write the notification to the terminal if `setting` wants it and the app is unfocused."""
    if not wants(setting, kind) or app.app_focus:
        return
    driver = app._driver
    if driver is not None:
        driver.write(osc9(text))
