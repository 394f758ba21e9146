"""Turning user input and session settings into history items."""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path

from codex_core.instructions import (
    EnvironmentContext,
    read_project_docs,
    user_instructions_message,
    user_shell_name,
)
from codex_core.protocol import (
    ImageInput,
    InputItem,
    LocalImageInput,
    Message,
    ResponseItem,
    TextInput,
    user_message,
)
from codex_core.turn_context import TurnContext


class InputError(ValueError):
    """User input that cannot be sent (an unreadable image)."""


def image_data_url(path: Path) -> str:
    """A `data:` URL for an image file."""
    mime = mimetypes.guess_type(path.name)[0] or "image/png"
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(f"cannot read image {path}: {err.strerror}") from None
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def user_input_message(items: list[InputItem], cwd: Path) -> tuple[Message, str, list[str]]:
    """The user message for the model, plus its text and image list for the transcript."""
    texts: list[str] = []
    images: list[str] = []
    for item in items:
        if isinstance(item, TextInput):
            texts.append(item.text)
        elif isinstance(item, ImageInput):
            images.append(item.image_url)
        elif isinstance(item, LocalImageInput):
            images.append(image_data_url((cwd / item.path).expanduser()))
    text = "\n".join(texts)
    return user_message(text, images), text, images


def initial_context(turn: TurnContext, project_doc_max_bytes: int) -> list[ResponseItem]:
    """The items that open a new conversation: AGENTS.md instructions and the environment."""
    items: list[ResponseItem] = []
    docs = read_project_docs(turn.cwd, project_doc_max_bytes)
    if docs:
        items.append(user_instructions_message(docs))
    items.append(environment_message(turn))
    return items


def environment_message(turn: TurnContext) -> Message:
    """The `<environment_context>` message for `turn`."""
    return EnvironmentContext(
        cwd=turn.cwd,
        approval_policy=turn.approval_policy,
        sandbox_policy=turn.sandbox_policy,
        shell=user_shell_name(),
    ).message()


def environment_changed(old: TurnContext, new: TurnContext) -> bool:
    """Whether the model must hear about a new cwd or policy."""
    return (old.cwd, old.approval_policy, old.sandbox_policy) != (
        new.cwd,
        new.approval_policy,
        new.sandbox_policy,
    )
