"""Text the model or a command produced, made safe to put on the user's terminal.

Model text and command output are hostile to the terminal that shows them: an OSC 52
sequence writes the clipboard (tmux passes it on with `set-clipboard on`), others clear the
screen, set the window title, move the cursor or redefine keys, and a TUI repaints them on
every frame and again on resume. `printable` shows every control character as a visible mark
(ESC → ␛, BEL → ␇, DEL → ␡, a C1 control such as the 8-bit CSI → "<9b>") and leaves the rest
of a sequence as the plain text it is, so the user sees that something was there and what it
carried (`␛]52;c;QkFTRTY0␇`) instead of losing it: a sequence that was dropped whole would
take its payload with it, and an approval prompt for `echo ESC]0; rm -rf ~ BEL` would show
only `echo`. The one exception is colour (SGR, `ESC[…m`): it is dropped, since its bytes are
only digits and separators and `ls --color` output would otherwise be unreadable.
Newlines and tabs stay; a lone carriage return becomes a newline (progress bars print as
lines instead of overwriting what was shown). Printable text, Unicode included, is unchanged.
`printable_event` applies it to every displayed string of a protocol event.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from codex_core.lite import Model as _Light
from codex_core.lite import is_model

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_COLOUR = re.compile(r"(?:\x1b\[|\x9b)[0-9;:]*m")  # SGR: no text can hide in it
_PICTURES = {code: chr(0x2400 + code) for code in range(0x20) if code not in (9, 10)}
_PICTURES[0x7F] = "\u2421"  # ␡
_PICTURES.update({code: f"<{code:02x}>" for code in range(0x80, 0xA0)})
_ID_FIELDS = ("id", "call_id")
Model = TypeVar("Model", bound=_Light)


def printable(text: str) -> str:
    """`text` with every control character shown as a visible mark (colour codes dropped)."""
    if not _CONTROL.search(text):
        return text
    text = _COLOUR.sub("", text.replace("\r\n", "\n")).replace("\r", "\n")
    return text.translate(_PICTURES)


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return printable(value)
    if is_model(value):
        return printable_event(value)
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {(printable(k) if isinstance(k, str) else k): _clean(v) for k, v in value.items()}
    return value


def _needs_cleaning(value: Any) -> bool:
    if isinstance(value, str):
        return _CONTROL.search(value) is not None
    if is_model(value):
        return any(_needs_cleaning(v) for v in value.__dict__.values())
    if isinstance(value, list):
        return any(_needs_cleaning(v) for v in value)
    if isinstance(value, dict):
        return any(_needs_cleaning(k) or _needs_cleaning(v) for k, v in value.items())
    return False


def printable_event(msg: Model) -> Model:
    """A copy of `msg` whose strings are `printable` (`msg` itself when nothing changes).

    Identifiers (`id`, `call_id`, `…_id`) stay as they are: they are matched, not shown.
    """
    update = {
        name: _clean(value)
        for name, value in msg.__dict__.items()
        if not (name in _ID_FIELDS or name.endswith("_id")) and _needs_cleaning(value)
    }
    return msg.model_copy(update=update) if update else msg
