"""Local image files as `data:` URLs for the model: format check by content and a size cap."""

from __future__ import annotations

import base64
from pathlib import Path

MAX_IMAGE_BYTES = 20 * 1024 * 1024
"""The largest image file sent (the Responses API's own limit per image)."""

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


# The models Codex 0.169's catalogue marks `supports_image_detail_original`: their images
# (attached, viewed, from MCP tools) go out at `detail: "original"`, every other model's at
# "high" (`codex-rust debug models`, and its requests, checked side by side).
_ORIGINAL_DETAIL_MODELS = frozenset(
    {
        "gpt-6-astra",
        "gpt-6.1-sol",
        "gpt-6.1-terra",
        "gpt-6-sol",
        "gpt-6-luna",
        "gpt-5.6-sol",
        "gpt-5.6-terra",
        "gpt-5.6-luna",
        "gpt-daybreak-blue-latest",
        "gpt-daybreak-red-latest",
        "gpt-5.5",
        "codex-auto-review",
    }
)


def image_detail(model: str) -> str:
    """The `detail` an image part is sent with to `model`, as Codex 0.169 chooses it."""
    return "original" if model in _ORIGINAL_DETAIL_MODELS else "high"


class ImageError(ValueError):
    """An image that cannot be sent; the message says why and what to do."""


def sniff_mime(data: bytes) -> str | None:
    """The MIME type of PNG, JPEG, GIF or WebP bytes, else None."""
    for signature, mime in _SIGNATURES:
        if data.startswith(signature):
            return mime
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def image_data_url(path: Path, max_bytes: int = MAX_IMAGE_BYTES) -> str:
    """A base64 `data:` URL of the file's bytes; raises `ImageError` with a one-line reason."""
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise ImageError(f"cannot attach image {path}: not a regular file")
        if size > max_bytes:
            raise ImageError(
                f"image {path} is {size:,} bytes; the limit is {max_bytes:,} — "
                "shrink or crop it first"
            )
        data = path.read_bytes()
    except FileNotFoundError:
        raise ImageError(f"no image at {path}: check the path") from None
    except OSError as err:
        raise ImageError(f"cannot read image {path}: {err.strerror or err}") from None
    mime = sniff_mime(data)
    if mime is None:
        raise ImageError(f"{path} is not a PNG, JPEG, GIF or WebP image")
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
