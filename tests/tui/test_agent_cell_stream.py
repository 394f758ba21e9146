"""A streamed answer is cut into segments and repaints only its changed tail each frame; the
screen it leaves is the one the whole answer draws as one Markdown document, wherever the
transcript is scrolled."""

from __future__ import annotations

import random

import pytest
from textual.app import App, ComposeResult

from codex_tui.app import markdown_split
from codex_tui.app.widgets.cells.agent_cell import AgentCell
from codex_tui.app.widgets.transcript import Transcript

SIZE = (70, 20)
PARA = "Streaming words wrap across the width of the transcript, again and again. "
ANSWER = "\n\n".join(
    [
        *(f"## Part {i}\n\n{PARA * 3}\n\n- one {i}\n- two `code` **bold**" for i in range(30)),
        *(f"> quoted {i}\n\n| a | b |\n|---|---|\n| {i} | x |" for i in range(8)),
        "```python\n" + "\n".join(f"print({i})" for i in range(30)) + "\n```",
        *(f"{i}. {PARA}" for i in range(1, 9)),
        "The end.",
    ]
)


class AnswerApp(App[None]):
    CSS = "Transcript { height: 1fr; } Transcript > * { height: auto; margin-top: 1; }"

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Transcript()

    async def on_mount(self) -> None:
        await self.query_one(Transcript).add(AgentCell(self.text))


def screens(app: App[None]) -> list[str]:
    """What a full repaint writes with the transcript at its top, middle and end."""
    transcript = app.query_one(Transcript)
    out = []
    for y in (0, transcript.max_scroll_y // 2, transcript.max_scroll_y):
        transcript.scroll_to(y=y, animate=False, immediate=True)
        out.append(app.screen._compositor.render_full_update().render_segments(app.console))
    return out


async def test_streamed_answer_leaves_the_screen_of_the_whole_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert len(ANSWER) > 9_000  # several segments close while it streams
    whole = AnswerApp(ANSWER)
    with monkeypatch.context() as uncut:  # one segment: the answer as one document
        uncut.setattr(markdown_split, "BLOCK_CHARS", 10**9)
        uncut.setattr(markdown_split, "SEGMENT_CHARS", 10**9)
        async with whole.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert len(whole.query_one(AgentCell).segment_sources) == 1
            expected = screens(whole)
    streamed = AnswerApp("")
    rng = random.Random(24)
    async with streamed.run_test(size=SIZE) as pilot:
        await pilot.pause()
        cell = streamed.query_one(AgentCell)
        sent = 0
        while sent < len(ANSWER):
            step = rng.randint(1, 400)
            await cell.append(ANSWER[sent : sent + step])
            sent += step
            if rng.random() < 0.7:
                await pilot.pause()  # a frame between some deltas, as the event pump does
        await cell.finish(ANSWER)
        await pilot.pause()
        assert len(cell.segment_sources) > 5
        assert screens(streamed) == expected
