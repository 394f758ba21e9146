"""Turning user input and session settings into history items."""

from __future__ import annotations

from pathlib import Path

from codex_core.images import ImageError
from codex_core.images import image_data_url as _image_data_url
from codex_core.instructions import (
    EnvironmentContext,
    read_user_instructions,
    user_instructions_message,
    user_shell_name,
)
from codex_core.protocol import (
    ImageInput,
    InputImage,
    InputItem,
    InputText,
    LocalImageInput,
    Message,
    ResponseItem,
    TextInput,
    user_message,
)
from codex_core.protocol.items import ContentItem
from codex_core.turn_context import TurnContext


class InputError(ValueError):
    """User input that cannot be sent (an unreadable image)."""


def image_data_url(path: Path) -> str:
    """A `data:` URL for an image file; `InputError` names what is wrong with it."""
    try:
        return _image_data_url(path)
    except ImageError as err:
        raise InputError(str(err)) from None


def image_label(number: int, path: str) -> str:
    """The text opening attached image `number` (`[Image #1]` is how the TUI names it)."""
    quoted = path.replace("\\", "\\\\").replace('"', '\\"')
    return f'<image name=[Image #{number}] path="{quoted}">'


def user_input_message(
    items: list[InputItem], cwd: Path, detail: str = "high"
) -> tuple[Message, str, list[str]]:
    """The user message for the model, plus its text and image list for the transcript.

    As in the Codex CLI, images come before the text, each local file between an opening
    label naming it `[Image #N]` and a closing tag, so the model can refer to it; local
    files go at `detail` (`codex_core.images.image_detail` of the model).
    """
    texts: list[str] = []
    images: list[str] = []
    parts: list[ContentItem] = []
    for item in items:
        if isinstance(item, TextInput):
            texts.append(item.text)
        elif isinstance(item, ImageInput):
            images.append(item.image_url)
            parts.append(InputImage(image_url=item.image_url))
        elif isinstance(item, LocalImageInput):
            url = image_data_url((cwd / item.path).expanduser())
            images.append(url)
            parts.append(InputText(text=image_label(len(images), item.path)))
            parts.append(InputImage(image_url=url, detail=detail))
            parts.append(InputText(text="</image>"))
    text = "\n".join(texts)
    if not parts:
        return user_message(text), text, images
    content: list[ContentItem] = [*parts, *(InputText(text=t) for t in texts)]
    return Message(role="user", content=content), text, images


def initial_context(
    turn: TurnContext, project_doc_max_bytes: int, codex_home: Path | None = None
) -> list[ResponseItem]:
    """The items that open a conversation: AGENTS.md instructions (global, then the
    project's) and the environment."""
    items: list[ResponseItem] = []
    docs = read_user_instructions(codex_home, turn.cwd, project_doc_max_bytes)
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
        granular=turn.granular,
    ).message()


TURN_ABORTED_TEXT = (
    "<turn_aborted>\n"
    "The user stopped the previous turn on purpose. Commands left in background terminals may "
    "still be running, and a tool or command that was cut short may have done part of its "
    "work.\n"
    "</turn_aborted>"
)
"""What the model reads after an interrupted turn (Codex 0.169 records a `<turn_aborted>`
user message of this shape, so the next request says the turn was cut off)."""


def turn_aborted_message() -> Message:
    """The user message recorded when a turn is interrupted."""
    return user_message(TURN_ABORTED_TEXT)


def environment_changed(old: TurnContext, new: TurnContext) -> bool:
    """Whether the model must hear about a new cwd or policy."""
    return (old.cwd, old.approval_policy, old.granular, old.sandbox_policy) != (
        new.cwd,
        new.approval_policy,
        new.granular,
        new.sandbox_policy,
    )
