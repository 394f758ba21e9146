"""The `view_image` tool: the model looks at an image file in the workspace."""

from __future__ import annotations

from codex_core.client import ToolSpec
from codex_core.images import ImageError, image_data_url, image_detail
from codex_core.kernel import ToolCall, ToolOutput
from codex_core.tools.args import parse_object
from codex_core.tools.context import ToolContext
from codex_core.tools.errors import RespondToModel
from codex_core.tools.registry import ToolEntry, ToolRegistry

VIEW_IMAGE_DESCRIPTION = (
    "Look at an image file on disk (PNG, JPEG, GIF or WebP), e.g. a screenshot or a chart "
    "the task produced. `path` is relative to the working directory."
)


def view_image_tool() -> ToolSpec:
    """The `view_image` function tool taking one `path`."""
    return ToolSpec(
        name="view_image",
        description=VIEW_IMAGE_DESCRIPTION,
        parameters={
            "type": "object",
            "properties": {"path": {"type": "string", "description": "The image file's path."}},
            "required": ["path"],
            "additionalProperties": False,
        },
    )


async def handle_view_image(ctx: ToolContext, call: ToolCall) -> ToolOutput:
    """Answer with one `input_image` part holding the file as a data URL."""
    path = parse_object(call.payload).get("path")
    if not isinstance(path, str) or not path or "\0" in path:
        raise RespondToModel("view_image needs a `path` string naming an image file")
    try:
        url = image_data_url(ctx.resolve(path))
    except ImageError as err:
        raise RespondToModel(str(err)) from None
    return [{"type": "input_image", "image_url": url, "detail": image_detail(ctx.turn.model)}]


def register_view_image(registry: ToolRegistry) -> None:
    """Offer `view_image` (once)."""
    if "view_image" not in registry.entries:
        registry.register(
            ToolEntry(
                "view_image",
                handle_view_image,
                lambda _policy: view_image_tool(),
                mutating=False,
                approval="none",
            )
        )
