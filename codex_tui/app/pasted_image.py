"""Recognising a pasted image file path (what terminals paste when a file is dropped on them)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"})
PLACEHOLDER = re.compile(r"\[Image #(\d+)\]")


def image_path(pasted: str, cwd: Path) -> str | None:
    """The path of the image file `pasted` names, as pasted, or None if it names none.

    Accepts what terminals and file managers paste: the path itself, quoted, with
    backslash-escaped spaces, or as a `file://` URL. Relative paths are checked against `cwd`
    (the session's directory, which the core resolves them against too).
    """
    text = pasted.strip()
    if not text or "\n" in text:
        return None
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    elif text.startswith("file://"):
        text = unquote(urlparse(text).path)
    else:
        text = re.sub(r"\\(.)", r"\1", text)
    if Path(text).suffix.lower() not in IMAGE_SUFFIXES:
        return None
    try:
        found = (cwd / Path(text).expanduser()).is_file()
    except OSError:
        return None
    return text if found else None


def placeholder(number: int) -> str:
    """How attached image `number` shows in the composer and the transcript."""
    return f"[Image #{number}]"


def numbers_in(text: str) -> set[int]:
    """The image numbers whose placeholders `text` still holds."""
    return {int(match.group(1)) for match in PLACEHOLDER.finditer(text)}
