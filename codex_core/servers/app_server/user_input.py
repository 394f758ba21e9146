"""Client `UserInput` entries as the core's input items."""

from __future__ import annotations

from typing import assert_never

from codex_core.protocol import ImageInput, InputItem, LocalImageInput, TextInput
from codex_core.servers.app_server import model_items as items


def core_input(entry: items.UserInput) -> InputItem:
    """One entry of `turn/start` or `turn/steer` input; a mention is sent as its path."""
    match entry:
        case items.TextUserInput():
            return TextInput(text=entry.text)
        case items.ImageUserInput():
            return ImageInput(image_url=entry.url)
        case items.LocalImageUserInput():
            return LocalImageInput(path=entry.path)
        case items.MentionUserInput():
            return TextInput(text=entry.path)
        case _ as unreachable:
            assert_never(unreachable)
