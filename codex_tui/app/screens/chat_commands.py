"""What each slash command does on the chat screen (app-wide ones are handed to the app)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from textual.app import App
from textual.content import Content
from textual.widget import Widget

from codex_core.frontend.home import codex_home_dir
from codex_core.protocol import (
    CleanBackgroundTerminalsOp,
    CompactOp,
    ListBackgroundTerminalsOp,
    ListMcpToolsOp,
    Op,
    OverrideTurnContextOp,
    TerminateBackgroundTerminalOp,
    UndoOp,
)
from codex_core.protocol.common import (
    AskForApproval,
    DangerFullAccessPolicy,
    ReadOnlyPolicy,
    ReasoningEffort,
    SandboxPolicy,
    WorkspaceWritePolicy,
)
from codex_tui.app.git_diff import diff_lines
from codex_tui.app.screens.chat_items import ItemApplier
from codex_tui.app.screens.choice import Choice, ChoiceScreen
from codex_tui.app.screens.pager import PagerScreen
from codex_tui.app.slash_commands import Invocation, Unknown
from codex_tui.app.status_report import StatusFacts, status_rows
from codex_tui.app.widgets.cells.info_cell import InfoCell
from codex_tui.app.widgets.cells.notice_cell import NoticeCell
from codex_tui.app.widgets.composer import Composer

AppRequestName = Literal["quit", "new", "resume", "fork", "save-model", "logout"]

MODELS = (
    ("gpt-5.1-codex-max", "the strongest model for long agentic coding"),
    ("gpt-5.1-codex", "tuned for coding in Codex"),
    ("gpt-5.1-codex-mini", "cheaper and faster, a little less capable"),
    ("gpt-5.1", "broad knowledge and reasoning"),
    ("gpt-5-codex", "the previous coding model"),
)
EFFORTS: tuple[tuple[ReasoningEffort, str], ...] = (
    ("low", "quick answers, light reasoning"),
    ("medium", "balanced (the default)"),
    ("high", "thinks longer on hard problems"),
)
PRESETS: dict[str, tuple[str, str, AskForApproval, SandboxPolicy]] = {
    "read-only": (
        "Read only",
        "asks before editing files or using the network",
        "on-request",
        ReadOnlyPolicy(),
    ),
    "auto": (
        "Auto",
        "edits and runs commands in the workspace; asks beyond it",
        "on-request",
        WorkspaceWritePolicy(),
    ),
    "full-access": (
        "Full access",
        "no sandbox and no questions: use with care",
        "never",
        DangerFullAccessPolicy(),
    ),
}
INIT_PROMPT = (
    "Create an AGENTS.md file at the root of this repository that helps coding agents work "
    "here. Look around first (layout, build, test and lint commands, code style, how commits "
    "and pull requests are written), then write a short, concrete guide in Markdown titled "
    '"Repository Guidelines" with sections such as project structure, build and test '
    "commands, coding style, testing and commit conventions. Keep it under 400 words and "
    "only state what you verified in the repository."
)


@dataclass(frozen=True)
class AppRequest:
    """Something only the app can do (it owns the session and the config)."""

    name: AppRequestName
    fork_at: int | None = None
    text: str | None = None
    draft: str | None = None
    """For a fork: text for the new session's composer (the message being edited)."""
    model: str | None = None
    effort: str | None = None


class SlashHost(Protocol):
    """What slash commands need from the chat screen: its state, and a few ways to act."""

    running: bool
    model: str | None
    effort: str | None
    provider: str | None
    approval: AskForApproval | None
    sandbox: SandboxPolicy | None
    context_left: int | None
    codex_home: str | None
    notify_setting: bool | list[str]
    applier: ItemApplier

    @property
    def app(self) -> App[Any]:
        """The app (commands push their pickers and pagers on it)."""
        ...

    @property
    def composer(self) -> Composer:
        """The composer."""
        ...

    async def add_cell(self, cell: Widget) -> None:
        """Append a cell to the transcript."""
        ...

    async def send_text(self, text: str) -> None:
        """Send a message the UI wrote."""
        ...

    async def submit_op(self, op: Op) -> None:
        """Submit an op to the session."""
        ...

    async def request_app(self, request: AppRequest) -> None:
        """Ask the app for something beyond the screen."""
        ...

    def set_model(self, model: str, effort: str | None) -> None:
        """The model changed."""
        ...

    def set_policies(self, approval: AskForApproval, sandbox: SandboxPolicy) -> None:
        """The approval and sandbox policies changed."""
        ...


class SlashRunner:
    """Runs parsed slash commands for one chat screen."""

    def __init__(self, screen: SlashHost) -> None:
        self.screen = screen

    async def run(self, parsed: Invocation | Unknown, text: str) -> None:
        """Run a command, or explain why not."""
        screen = self.screen
        if isinstance(parsed, Unknown):
            composer = screen.composer
            composer.load_text(text)
            composer.move_cursor(composer.document.end)
            await screen.add_cell(
                NoticeCell(
                    "info",
                    f"{parsed.word} is not a command; type / to see them (nothing was sent)",
                )
            )
            return
        command = parsed.command
        if command.idle_only and screen.running:
            await screen.add_cell(
                NoticeCell("info", f"/{command.name} is unavailable while a turn runs")
            )
            return
        handler = getattr(self, f"cmd_{command.name}")
        await handler(parsed.args)

    async def _app(self, request: AppRequest) -> None:
        await self.screen.request_app(request)

    async def cmd_quit(self, _args: str) -> None:
        """Leave."""
        await self._app(AppRequest("quit"))

    cmd_exit = cmd_quit

    async def cmd_new(self, _args: str) -> None:
        """A fresh session."""
        await self._app(AppRequest("new"))

    async def cmd_resume(self, _args: str) -> None:
        """The picker, in the app."""
        await self._app(AppRequest("resume"))

    async def cmd_fork(self, _args: str) -> None:
        """Continue a copy of this session."""
        await self._app(AppRequest("fork"))

    async def cmd_logout(self, _args: str) -> None:
        """Forget the key, then quit."""
        await self._app(AppRequest("logout"))

    async def cmd_compact(self, _args: str) -> None:
        """Summarise the conversation."""
        await self.screen.submit_op(CompactOp())

    async def cmd_undo(self, _args: str) -> None:
        """Ask the core to restore the last snapshot."""
        await self.screen.submit_op(UndoOp())

    async def cmd_mcp(self, _args: str) -> None:
        """Ask the core for the servers; the answer becomes a cell."""
        await self.screen.submit_op(ListMcpToolsOp())

    async def cmd_hooks(self, args: str) -> None:
        """List the hooks; `/hooks trust|untrust|enable|disable N|all` changes their record."""
        # (hooks, skills and the working tree's diff load with their command: a launch
        # shows none of them)
        from codex_tui.app.extensions_view import ACTIONS, HOOKS_USAGE, HooksView

        screen = self.screen
        home = Path(screen.codex_home or codex_home_dir())
        cwd = Path(screen.applier.cwd or ".")
        view = await asyncio.to_thread(HooksView.load, home, cwd)
        words = args.split()
        if words:
            if len(words) != 2 or words[0] not in ACTIONS:
                await screen.add_cell(NoticeCell("info", f"usage: {HOOKS_USAGE}"))
                return
            said = await asyncio.to_thread(view.apply, words[0], words[1])
            await screen.add_cell(NoticeCell("info", said))
            view = await asyncio.to_thread(HooksView.load, home, cwd)
        rows = view.rows() or [("", "no hooks: see hooks.json in the Codex docs")]
        review = view.needing_review()
        note = f"{review} need review: {HOOKS_USAGE}" if review else None
        await screen.add_cell(InfoCell("Hooks", rows, note))

    async def cmd_skills(self, _args: str) -> None:
        """List the skills the model is told about."""
        from codex_tui.app.extensions_view import skills_rows

        screen = self.screen
        home = Path(screen.codex_home or codex_home_dir())
        rows, note = await asyncio.to_thread(skills_rows, home, Path(screen.applier.cwd or "."))
        await screen.add_cell(InfoCell("Skills", rows, note))

    async def cmd_ps(self, _args: str) -> None:
        """Ask the core for the background terminals; the answer becomes a cell."""
        await self.screen.submit_op(ListBackgroundTerminalsOp())

    async def cmd_stop(self, args: str) -> None:
        """Kill the background terminal `args` names, or all of them (the core answers)."""
        if args:
            await self.screen.submit_op(TerminateBackgroundTerminalOp(process_id=args))
        else:
            await self.screen.submit_op(CleanBackgroundTerminalsOp())

    async def cmd_init(self, _args: str) -> None:
        """Ask the model to write AGENTS.md (unless one exists)."""
        cwd = Path(self.screen.applier.cwd or ".")
        if (cwd / "AGENTS.md").exists():
            await self.screen.add_cell(
                NoticeCell("info", "AGENTS.md already exists here; /init leaves it alone")
            )
            return
        await self.screen.send_text(INIT_PROMPT)

    async def cmd_review(self, args: str) -> None:
        """A code review as `codex review` runs it: `/review TEXT` at once, `/review` asks
        what to review first; the findings become the turn's answer."""
        from codex_tui.app.screens.review_flow import start_review

        await start_review(self.screen, Path(self.screen.applier.cwd or "."), args)

    async def cmd_mention(self, _args: str) -> None:
        """Start an @ mention in the composer."""
        composer = self.screen.composer
        composer.insert("@")

    async def cmd_status(self, _args: str) -> None:
        """A cell with the session's settings and usage."""
        screen = self.screen
        rows = status_rows(self.status_facts())
        await screen.add_cell(InfoCell("Status", rows))

    async def cmd_diff(self, _args: str) -> None:
        """The working tree's diff in the pager."""
        from codex_core.git_snapshot import NotAGitRepoError, SnapshotError, working_tree_diff

        cwd = Path(self.screen.applier.cwd or ".")
        try:
            diff = await asyncio.to_thread(working_tree_diff, cwd)
        except NotAGitRepoError:
            await self.screen.add_cell(
                NoticeCell("info", f"/diff needs a git repository; {cwd} is not inside one")
            )
            return
        except SnapshotError as err:
            await self.screen.add_cell(NoticeCell("error", f"/diff failed: {err}"))
            return
        lines = diff_lines(diff) if diff.strip() else [Content("No changes.")]
        await self.screen.app.push_screen(PagerScreen("Diff (working tree vs HEAD)", lines))

    async def cmd_model(self, _args: str) -> None:
        """Pick a model, then an effort; apply and save as the default."""
        screen = self.screen
        current = screen.model or ""
        names = [name for name, _ in MODELS]
        models = [Choice(n, n, d, current=n == current) for n, d in MODELS]
        if current and current not in names:
            models.insert(0, Choice(current, current, "configured", current=True))

        def picked_model(model: str | None) -> None:
            if model is None:
                return
            efforts = [
                Choice(e, e, d, current=e == (screen.effort or "medium")) for e, d in EFFORTS
            ]
            screen.app.push_screen(
                ChoiceScreen("Reasoning effort", f"How hard {model} thinks", efforts),
                callback=lambda effort: self._set_model(model, effort),
            )

        screen.app.push_screen(
            ChoiceScreen("Model", "Saved as the default in config.toml", models),
            callback=picked_model,
        )

    async def _set_model(self, model: str, effort: str | None) -> None:
        if effort is None:
            return
        chosen: ReasoningEffort | None = next((e for e, _ in EFFORTS if e == effort), None)
        await self.screen.submit_op(OverrideTurnContextOp(model=model, effort=chosen))
        self.screen.set_model(model, effort)
        await self._app(AppRequest("save-model", model=model, effort=effort))

    async def cmd_permissions(self, _args: str) -> None:
        """Pick an approval + sandbox preset for the rest of the session."""
        choices = [
            Choice(key, label, description, current=key == self.preset())
            for key, (label, description, _policy, _sandbox) in PRESETS.items()
        ]
        self.screen.app.push_screen(
            ChoiceScreen("Permissions", "For the rest of this session", choices),
            callback=self._set_preset,
        )

    async def _set_preset(self, key: str | None) -> None:
        if key is None:
            return
        label, _description, policy, sandbox = PRESETS[key]
        await self.screen.submit_op(
            OverrideTurnContextOp(approval_policy=policy, sandbox_policy=sandbox)
        )
        self.screen.set_policies(policy, sandbox)
        await self.screen.add_cell(
            NoticeCell("info", f"Permissions: {label} (approval {policy}, sandbox {sandbox.mode})")
        )

    def status_facts(self) -> StatusFacts:
        """What /status reports."""
        screen = self.screen
        from codex_core.instructions import project_doc_paths
        from codex_core.model_family import context_window_for

        cwd = screen.applier.cwd
        agents = [str(p) for p in project_doc_paths(Path(cwd))] if cwd else []
        if screen.codex_home and (Path(screen.codex_home) / "AGENTS.md").is_file():
            agents.insert(0, str(Path(screen.codex_home) / "AGENTS.md"))
        return StatusFacts(
            model=screen.model,
            effort=screen.effort,
            provider=screen.provider,
            cwd=cwd,
            approval=screen.approval,
            sandbox=screen.sandbox,
            session_id=screen.applier.session_id,
            codex_home=screen.codex_home,
            agents_files=agents,
            usage=screen.applier.total_usage,
            context_left=screen.context_left,
            context_window=screen.applier.context_window or context_window_for(screen.model or ""),
            notifications=screen.notify_setting,
        )

    def preset(self) -> str | None:
        """The /permissions preset the current policies match, if any."""
        mode = self.screen.sandbox.mode if self.screen.sandbox else None
        if mode == "danger-full-access" and self.screen.approval == "never":
            return "full-access"
        if mode == "read-only":
            return "read-only"
        return "auto" if mode == "workspace-write" else None
