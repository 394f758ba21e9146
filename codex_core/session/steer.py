"""Steering: user input sent while a turn runs joins that turn (0.169's `turn/steer`).

The input waits until the turn's next model request: after the tool outputs the model is
waiting for, or, when the model answered without calling a tool, as one more request of the
same turn. It is shown (`user_message`) and recorded when it joins, so the transcript, the
rollout and the model's history keep the order the model saw. An interrupt drops input that
has not joined yet; the frontend still holds it and gives it back to the user.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from codex_core.kernel import Kernel, TurnResult
from codex_core.protocol import ErrorEvent, EventMsg, InputItem, ResponseItem, UserMessageEvent
from codex_core.session.inputs import InputError, user_input_message


class SteeredInput:
    """Input waiting to join the running turn; `open` while a user turn can take it."""

    def __init__(self) -> None:
        self.waiting: list[tuple[str, list[InputItem]]] = []
        """(submission id, input) in arrival order."""
        self.open = False
        self.image_detail = "high"
        """The `detail` attached images go at (the running turn's model's)."""

    def push(self, sub_id: str, items: list[InputItem]) -> bool:
        """Queue `items` for the running turn; False when no user turn is running."""
        if not self.open:
            return False
        self.waiting.append((sub_id, items))
        return True

    def start(self) -> None:
        """A user turn began: it takes steered input from now on (input that arrived since the
        session opened it for that turn stays)."""
        if not self.open:
            self.waiting.clear()
        self.open = True

    def close(self) -> list[tuple[str, list[InputItem]]]:
        """The turn ended: nothing more joins it; returns what never joined."""
        self.open = False
        left, self.waiting = self.waiting, []
        return left

    def take(self, cwd: Path, emit: Callable[[EventMsg], None]) -> list[ResponseItem]:
        """The waiting input as user messages, each shown as it joins (bad images: an error)."""
        items: list[ResponseItem] = []
        waiting, self.waiting = self.waiting, []
        for _sub_id, inputs in waiting:
            try:
                message, text, images = user_input_message(inputs, cwd, self.image_detail)
            except InputError as err:
                emit(ErrorEvent(message=str(err)))
                continue
            emit(UserMessageEvent(message=text, images=images or None))
            items.append(message)
        return items


def joining_between_requests(
    steered: SteeredInput,
    cwd: Path,
    emit: Callable[[EventMsg], None],
    history: list[ResponseItem],
    record: Callable[[list[ResponseItem]], None],
    before: Callable[[], Awaitable[None]] | None = None,
) -> Callable[[], Awaitable[None]]:
    """A kernel `between_requests` that runs `before`, then adds waiting input to history."""

    async def between() -> None:
        if before is not None:
            await before()
        items = steered.take(cwd, emit)
        if items:
            history.extend(items)
            record(items)

    return between


async def run_steered(
    kernel: Kernel,
    history: list[ResponseItem],
    new_items: list[ResponseItem],
    steered: SteeredInput,
    cwd: Path,
    emit: Callable[[EventMsg], None],
) -> TurnResult:
    """`kernel.run_turn`, then one more round for each batch of input steered in meanwhile."""
    result = await kernel.run_turn(history, new_items)
    while more_items := steered.take(cwd, emit):
        more = await kernel.run_turn(history, more_items)
        result.usage = result.usage + more.usage
        result.requests += more.requests
        result.last_agent_message = more.last_agent_message or result.last_agent_message
    return result
