"""What the chat screen sends the session: ops held until it exists, messages with images."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from codex_core.protocol import AddToHistoryOp, Op, UserInputOp
from codex_core.protocol.common import InputItem, LocalImageInput, TextInput
from codex_tui.app.core import CoreClient


@dataclass(frozen=True)
class Outgoing:
    """A message the user wrote, with the image files attached to it (paths as given)."""

    text: str
    images: tuple[str, ...] = ()


@dataclass
class Outbox:
    """Submits ops to the session; until `attach()` they are held and then sent in order."""

    core: CoreClient | None = None
    unsent: list[Op] = field(default_factory=list)

    async def attach(self, core: CoreClient) -> None:
        """The session is ready: send what was submitted while it was starting."""
        self.core = core
        unsent, self.unsent = self.unsent, []
        for op in unsent:
            await core.submit(op)

    async def submit(self, op: Op) -> None:
        """Submit `op` now, or hold it until the session exists."""
        if self.core is None:
            self.unsent.append(op)
        else:
            await self.core.submit(op)

    async def send(self, text: str, images: Sequence[str] = ()) -> None:
        """A user message: its text, then its images (the core labels them `[Image #N]`)."""
        items: list[InputItem] = [TextInput(text=text)] if text else []
        items += [LocalImageInput(path=path) for path in images]
        if not items:
            return
        await self.submit(UserInputOp(items=items))
        if text.strip():
            await self.submit(AddToHistoryOp(text=text))
