"""The Textual app: start-up screens, then one chat screen per session fed by the event pump."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.widgets import TextArea

from codex_core.items import client as c
from codex_core.items import notices as n
from codex_core.protocol import ShutdownOp
from codex_core.protocol.common import TokenUsage
from codex_tui.app.clock import Clock, SystemClock
from codex_tui.app.core import Boot, CoreClient, LaunchOptions
from codex_tui.app.event_pump import pump_notices
from codex_tui.app.messages import CoreFailed, CoreNotices
from codex_tui.app.screens.chat import ChatScreen
from codex_tui.app.screens.chat_commands import AppRequest
from codex_tui.app.widgets.cells.agent_cell import load_markdown_meanwhile

if TYPE_CHECKING:
    from textual.driver import Driver

    from codex_tui.app.screens.resume_picker import ResumePickerScreen

SHUTDOWN_GRACE_SECONDS = 3.0
MARKDOWN_PRELOAD_SECONDS = 0.5
"""How long after the session opens the Markdown renderer is loaded anyway (in a thread) if
no answer has started it: by then the app waits for the model or the user."""
REVERTED = "Conversation rolled back to before this message; changes to files stay as they are."


def _draws_on_stdout() -> bool:
    """Whether the screen goes to stdout: stderr is not the terminal, and stdout is."""
    out, err = sys.__stdout__, sys.__stderr__
    return out is not None and out.isatty() and (err is None or not err.isatty())


@dataclass(frozen=True)
class ExitSummary:
    """What to print after the app closes."""

    session_id: str | None = None
    usage: TokenUsage | None = None
    error: str | None = None
    transcript: tuple[str, ...] = ()
    """The conversation as plain lines (printed after an inline run, for the scrollback)."""


class CodexApp(App[ExitSummary]):
    """`codex` in a terminal."""

    CSS_PATH = ["codex_app.tcss", "screens/chat.tcss"]
    """The chat screen's rules load with the app's (they match only its widgets): a screen
    whose CSS file is new to the app makes Textual parse every rule again and restyle every
    widget as it is pushed (~15-20 ms CPU on the way to the first frame)."""
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+q", "quit_session", "quit", show=False, priority=True),
        Binding("ctrl+c", "quit_session", "quit", show=False),
    ]

    def __init__(self, boot: Boot, options: LaunchOptions, *, clock: Clock | None = None) -> None:
        super().__init__()
        self.boot = boot
        self.options = options
        self.clock: Clock = clock or SystemClock()
        self.core: CoreClient | None = None
        self.chat: ChatScreen | None = None
        self.quitting = False
        self.exit_message: str | None = None
        """Printed (to stderr) once the screen is gone, as `codex logout` prints it."""
        self.theme = "textual-dark"

    def _build_driver(
        self, headless: bool, inline: bool, mouse: bool, size: tuple[int, int] | None
    ) -> Driver:
        """Textual's driver, drawing on the terminal even when stderr is not one.

        Textual draws on stderr; with `codex 2>log` the screen would go to the file and the
        terminal stay blank. Then it draws on stdout, as the Rust CLI does, and stderr keeps
        what is written to it.
        """
        driver = super()._build_driver(headless, inline, mouse, size)
        if not headless and _draws_on_stdout():
            driver._file = sys.__stdout__  # type: ignore[attr-defined]
        return driver

    def on_mount(self) -> None:
        """Walk the start-up steps in a worker (screens there wait for answers)."""
        if self.options.stop_frame is not None:  # no screen is drawn before this
            self.options.stop_frame()
        self.run_worker(self._startup(), name="startup", exit_on_error=False)

    async def _startup(self) -> None:
        # The trust, API-key and picker screens load only when shown: a launch with a
        # prompt shows none of them before its answer (~17 ms CPU off its path).
        trust = self.boot.trust_request()
        if trust is not None:
            from codex_tui.app.screens.trust import TrustScreen

            answer = await self.push_screen_wait(TrustScreen(trust))
            if not answer:  # leave, recording nothing (0.169 offers no "do not trust")
                self.exit()
                return
            if not trust.restricted:  # opening restricted keeps the recorded decision
                self.boot.record_trust(True)
        key_request = self.boot.key_request()
        if key_request is not None:
            from codex_tui.app.screens.api_key import ApiKeyScreen

            key = await self.push_screen_wait(ApiKeyScreen(key_request))
            if key is None:
                self.exit(
                    ExitSummary(error=f"Set {key_request.env_var} (or paste a key) to use Codex.")
                )
                return
            self.boot.save_key(key)
        path = self.options.resume_path
        if self.options.show_picker:
            picker = self._picker()
            path = await self.push_screen_wait(picker)
            if picker.failure is not None:
                self.exit(ExitSummary(error=picker.failure))
                return
            if path is not None and self.options.fork_picked:
                from codex_core.frontend.fork import fork_session

                home = Path(self.options.codex_home or ".")
                path, original = await asyncio.to_thread(fork_session, home, path)
                self.options.notice = f"Thread forked from {original}"
        await self.start_session(path)

    def _picker(self, *, in_app: bool = False) -> ResumePickerScreen:
        from codex_tui.app.screens.resume_picker import ResumePickerScreen

        return ResumePickerScreen(
            self.boot.sessions(),
            self.clock,
            show_all=self.options.show_all,
            in_app=in_app,
            fork=self.options.fork_picked and not in_app,
            on_listed=self.boot.prepare_session,
        )

    async def start_session(self, resume_path: Path | None) -> None:
        """Show a chat screen at once, then create the session (new or resumed) behind it."""
        options = self.options
        chat = ChatScreen(
            None,
            clock=self.clock,
            version=options.version,
            hide_reasoning=options.hide_agent_reasoning,
            context_window=options.model_context_window,
            prompt=options.prompt,
            images=options.images,
            on_quit=self.quit_session,
            on_command=self.run_command,
            codex_home=options.codex_home,
            notify=options.notifications,
            notice=options.notice,
        )
        draft, send_draft = options.draft, options.send_draft
        options.prompt, options.images = None, []
        options.draft, options.send_draft = "", False
        options.notice = None
        self.core, self.chat = None, chat
        # The handshake with the session's server (its answers are often waiting already)
        # runs while the screen mounts, so the launch prompt goes as soon as both are done.
        opening = asyncio.ensure_future(self.boot.start(resume_path))
        if isinstance(self.screen, ChatScreen):
            await self.switch_screen(chat)
        else:
            await self.push_screen(chat)
        if draft:
            await self._take_draft(chat, draft, send_draft)
        try:
            core = await opening
        except Exception as err:  # any start-up failure ends the app with one sentence
            self.exit(ExitSummary(error=str(err) or err.__class__.__name__))
            return
        if self.chat is not chat:
            return
        self.core = core
        await chat.attach(core)  # before the pump, which hands the screen this core's events
        self.run_worker(self._pump(core), group="pump", exit_on_error=False)
        # An answer's first plain words are drawn without Markdown and start its import
        # (agent_cell); a model slower than this leaves the app idle: load it meanwhile.
        self.set_timer(MARKDOWN_PRELOAD_SECONDS, load_markdown_meanwhile)
        if self.quitting:
            await core.submit(ShutdownOp())

    @staticmethod
    async def _take_draft(chat: ChatScreen, draft: str, send: bool) -> None:
        """Text typed on the first frame: sent as if Enter were pressed in the composer now
        (held until the session exists), or put in the composer, before anything typed since."""
        composer = chat.composer
        if send:
            composer.past.record(draft)
            await chat.submit_text(draft)
        else:
            composer.insert(draft, (0, 0))
            composer.move_cursor(composer.document.end)

    async def _pump(self, core: CoreClient) -> None:
        try:
            await pump_notices(core, lambda batch: self._deliver(batch, core))
        except Exception as err:  # the core broke: tell the user instead of hanging
            self.post_message(CoreFailed(f"The session stopped unexpectedly: {err}"))

    async def _deliver(self, batch: list[c.ClientNotice], core: CoreClient) -> None:
        """Post a batch to the session's chat screen and wait until it is applied.

        The batch goes to the screen's queue, not the app's: keys pass through the app's
        queue, and must not wait behind a batch being applied.
        """
        chat = self.chat
        if chat is None or core is not self.core:
            return
        message = CoreNotices(batch, core)
        if chat.post_message(message):
            await message.applied
        if isinstance(batch[-1], n.SessionEnded) and self.quitting:
            self._finish()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        """A slash command is being typed: /new, /resume or /fork may start a session."""
        if event.text_area.text.startswith("/"):
            self.boot.prepare_session()

    def on_key(self, event: events.Key) -> None:
        """Esc may begin a backtrack, whose edit starts a forked session."""
        if event.key == "escape" and self.chat is not None and not self.chat.composer.text:
            self.boot.prepare_session()

    def on_core_failed(self, message: CoreFailed) -> None:
        """Leave with the reason."""
        self.exit(self._summary(error=message.reason))

    async def quit_session(self) -> None:
        """Shut the session down, then exit (or exit anyway after a grace period)."""
        if self.quitting:
            self._finish()
            return
        self.quitting = True
        if self.core is None:
            self._finish()
            return
        await self.core.submit(ShutdownOp())
        self.set_timer(SHUTDOWN_GRACE_SECONDS, self._finish)

    async def action_quit_session(self) -> None:
        """ctrl+q."""
        await self.quit_session()

    async def run_command(self, request: AppRequest) -> None:
        """Slash commands (and backtrack forks) that reach beyond one chat screen."""
        match request.name:
            case "quit":
                await self.quit_session()
            case "new":
                self.run_worker(self._replace_session(None), group="switch")
            case "resume":
                self.run_worker(self._pick_and_resume(), group="switch")
            case "fork":
                self.run_worker(
                    self._fork(request.fork_at, request.text, request.draft), group="switch"
                )
            case "save-model":
                await self._save_model(request.model or "", request.effort)
            case "logout":
                removed = self.boot.logout()
                self.exit_message = "Successfully logged out" if removed else "Not logged in"
                await self.quit_session()

    async def _save_model(self, model: str, effort: str | None) -> None:
        from codex_tui.app.widgets.cells.notice_cell import NoticeCell

        try:
            self.boot.save_model(model, effort)
            note = NoticeCell("info", f"Model set to {model} ({effort}); saved as the default")
        except Exception as err:  # a config that cannot be written is a warning, not a crash
            note = NoticeCell("warning", f"Model set for this session; not saved: {err}")
        if self.chat is not None:
            await self.chat.add_cell(note)

    async def _fork(self, fork_at: int | None, text: str | None, draft: str | None = None) -> None:
        """A new session copied from this one (up to a user message), then maybe a message."""
        from codex_tui.app.widgets.cells.notice_cell import NoticeCell

        chat = self.chat
        rollout = chat.applier.rollout_path if chat is not None else None
        if rollout is None:
            if chat is not None:
                await chat.add_cell(
                    NoticeCell("error", "This session is not saved, so it cannot be forked")
                )
            return
        try:
            path = self.boot.fork(Path(rollout), fork_at)
        except OSError as err:
            if chat is not None:
                await chat.add_cell(NoticeCell("error", f"Could not fork the session: {err}"))
            return
        self.options.prompt = text
        if draft is not None:  # a backtrack: the message comes back to be edited
            self.options.draft = draft
            self.options.notice = REVERTED
        await self._replace_session(path)

    async def _pick_and_resume(self) -> None:
        path = await self.push_screen_wait(self._picker(in_app=True))
        if path is not None:
            await self._replace_session(path)

    async def _replace_session(self, path: Path | None) -> None:
        old = self.core
        if old is not None:
            await old.submit(ShutdownOp())
        await self.start_session(path)

    def _summary(self, error: str | None = None) -> ExitSummary:
        applier = self.chat.applier if self.chat is not None else None
        return ExitSummary(
            session_id=applier.session_id if applier else None,
            usage=applier.total_usage if applier else None,
            error=error,
            transcript=tuple(line.plain for line in applier.log.lines) if applier else (),
        )

    def _finish(self) -> None:
        if self.return_value is None:
            self.exit(self._summary(), message=self.exit_message)
