"""Drives one `codex exec` session: submit the prompt, feed events to the output, shut down."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from codex_core import items
from codex_core.config import Config
from codex_core.items import notices as n
from codex_core.protocol import (
    LocalImageInput,
    Op,
    ResolveElicitationOp,
    ShutdownOp,
    TextInput,
    UserTurnOp,
)

if TYPE_CHECKING:
    from codex_core.session import Session


class EventProcessor(Protocol):
    """Renders the item projection of the run's events; remembers whether the turn failed
    and the last message."""

    failed: bool
    last_message: str | None

    def handle(self, event: items.Event) -> list[n.Notice]:
        """Render one event; returns its notices."""
        ...


async def render_until(
    session: Session, processor: EventProcessor, end: type[n.TurnEnded | n.SessionEnded]
) -> None:
    """Render the session's events until the notice `end`, declining every MCP server's
    question on the way: nobody can fill a form here (as the Codex CLI 0.169's exec)."""
    while True:
        for notice in processor.handle(await session.next_event()):
            if isinstance(notice, n.ElicitationRequested):
                decline = ResolveElicitationOp(
                    server_name=notice.server_name, request_id=notice.request_id, decision="decline"
                )
                await session.submit(decline)
            elif isinstance(notice, end):
                return


async def run_exec_session(
    config: Config,
    prompt: str,
    *,
    images: Sequence[str | Path],
    json_mode: bool,
    output_last_message: Path | None,
    color: bool,
    resume_path: Path | None = None,
    output_schema: dict[str, Any] | None = None,
    op: Op | None = None,
) -> int:
    """Run one turn to completion (the prompt's, or `op`'s); returns the process exit code."""
    from codex_core.mcp.early import discard_unclaimed, start_early

    # Stdio MCP servers boot on the other core while the session's modules load.
    await start_early(config.mcp_servers or {}, os.environ, str(config.cwd))
    processor: EventProcessor
    if json_mode:
        from codex_tui.exec.jsonl import JsonlProcessor

        processor = JsonlProcessor(sys.stdout)
    else:
        from codex_tui.exec.human import HumanProcessor

        processor = HumanProcessor(config, prompt, out=sys.stdout, err=sys.stderr, color=color)
    # The session's modules and objects live as long as the process: collecting garbage
    # while they load only walks them, again and again, before the first request.
    gc.disable()
    try:
        from codex_core.session import Session

        session = await Session.create(config, source="exec", resume_path=resume_path)
    except BaseException:
        await discard_unclaimed()
        raise
    finally:
        gc.freeze()  # later collections leave them alone
        gc.enable()
    # Typed values already: constructed without validators (building the op's would take
    # longer than the rest of this function, before the first request).
    items: list[TextInput | LocalImageInput] = [TextInput.model_construct(text=prompt)]
    items.extend(LocalImageInput.model_construct(path=str(p)) for p in images)
    turn = UserTurnOp.model_construct(items=list(items), final_output_json_schema=output_schema)
    await session.submit(op or turn)
    try:
        await render_until(session, processor, n.TurnEnded)
    finally:
        # Also on SIGINT (this task cancelled): shutting down interrupts the turn, and the
        # events that follow (the command's end, `turn_aborted`) still reach the output.
        await session.submit(ShutdownOp())
        await render_until(session, processor, n.SessionEnded)
        await discard_unclaimed()  # none, unless the session stopped before adopting them
    if output_last_message is not None:
        try:
            output_last_message.write_text(processor.last_message or "", encoding="utf-8")
        except OSError as err:
            print(f"codex: cannot write {output_last_message}: {err.strerror}", file=sys.stderr)
            return 1
    return 1 if processor.failed else 0
