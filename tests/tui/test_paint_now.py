"""A keystroke's echo is drawn at once, ahead of the screen's next frame (`paint_now`), and
only when the composer stays where the last frame put it; the frame still draws the rest."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.drivers.headless_driver import HeadlessDriver
from textual.widgets import Static

from codex_tui.app.widgets.cells.agent_cell import AgentCell
from codex_tui.app.widgets.composer import Composer
from codex_tui.app.widgets.paint_now import paint_now


class RecordingDriver(HeadlessDriver):
    """A terminal that keeps what the app writes (the headless driver drops it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.written: list[str] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        self.written.append(data)

    def take(self) -> str:
        text, self.written = "".join(self.written), []
        return text


class EchoApp(App[None]):
    """The chat screen's shape: a growing answer above, the composer, a footer below."""

    CSS = """
    #transcript { height: 1fr; }
    #transcript > * { height: auto; }
    Composer { height: auto; min-height: 3; max-height: 12; }
    #footer { height: auto; }
    """

    def __init__(self) -> None:
        super().__init__(driver_class=RecordingDriver)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="transcript"):
            yield AgentCell("first words")
        yield Composer()
        yield Static("footer", id="footer")

    @property
    def recorder(self) -> RecordingDriver:
        assert isinstance(self._driver, RecordingDriver)
        return self._driver


async def test_echo_is_written_before_the_growing_answer_is_laid_out() -> None:
    app = EchoApp()
    async with app.run_test(headless=False, size=(60, 16)) as pilot:
        composer = app.query_one(Composer)
        composer.focus()
        await pilot.pause()
        app.recorder.take()
        # The answer grows (a layout waits for the frame) and a key is typed meanwhile.
        await app.query_one(AgentCell).append(" and the streamed tail QWERTY")
        composer.insert("q")
        assert paint_now(composer)
        echo = app.recorder.take()
        assert "q" in echo and "QWERTY" not in echo
        assert not paint_now(composer)  # nothing left to draw
        await pilot.pause()
        assert "QWERTY" in app.recorder.take()  # the frame draws the answer


async def test_echo_waits_for_the_frame_when_the_composer_moves() -> None:
    app = EchoApp()
    async with app.run_test(headless=False, size=(60, 16)) as pilot:
        composer = app.query_one(Composer)
        composer.focus()
        await pilot.pause()
        # The footer below grows a line: the composer will move up at the next frame.
        app.query_one("#footer", Static).update("footer\nsecond line")
        composer.insert("q")
        assert not paint_now(composer)
        await pilot.pause()
        # The composer's own height changes (a second line): the frame draws it too.
        composer.insert("\nsecond")
        assert not paint_now(composer)
        await pilot.pause()
        app.recorder.take()
        composer.insert("z")
        assert paint_now(composer)
        assert "z" in app.recorder.take()
