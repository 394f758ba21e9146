"""The start-up steps over the real config, auth, rollout listing and Session."""

from __future__ import annotations

import logging
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codex_core.config import Config, ConfigOverrides, load_config
from codex_core.frontend.git import project_root
from codex_tui.app.core import CoreClient, KeyRequest, SessionPage, SessionSummary, TrustRequest
from codex_tui.app.formatting import shorten_path

if TYPE_CHECKING:
    from codex_tui.app.early_turn import EarlyTurn, Watcher

log = logging.getLogger(__name__)


class RolloutSessions:
    """Pages of `list_sessions`, as rows for the resume picker."""

    def __init__(self, codex_home: Path, cwd: Path) -> None:
        self.codex_home = codex_home
        self.cwd = cwd

    def list_page(self, cursor: str | None, show_all: bool) -> SessionPage:
        """One page of sessions (this directory's unless `show_all`): those a person typed
        in, as 0.169's picker lists them (not `codex exec`'s, an MCP client's, a subagent's)."""
        from codex_core.rollout.listing import INTERACTIVE_SOURCES, list_sessions

        where = None if show_all else str(self.cwd)
        page = list_sessions(self.codex_home, cursor=cursor, cwd=where, sources=INTERACTIVE_SOURCES)
        items = [
            SessionSummary(
                id=item.id,
                path=Path(item.path),
                updated=datetime.fromtimestamp(item.updated_at, UTC),
                cwd=item.cwd or "",
                branch=item.git_branch,
                preview=item.preview,
            )
            for item in page.items
        ]
        for skipped in page.skipped:
            log.warning("%s", skipped.warning)
        return SessionPage(items, page.next_cursor, [s.path for s in page.skipped])


class RealBoot:
    """Implements `Boot` with the real core; keeps the current Config."""

    def __init__(
        self,
        overrides: ConfigOverrides,
        cli_overrides: list[str],
        config: Config,
        log_name: str = "codex-tui.log",
        spare: subprocess.Popen[bytes] | None = None,
    ) -> None:
        self.overrides = overrides
        self.cli_overrides = cli_overrides
        self.config = config
        self.project, self.is_git_repo = project_root(config.cwd)
        self.log_name = log_name
        self.spare = spare
        """An app-server child spawned ahead of need (at launch, `prepare_session`), used by
        `start`."""
        self.early: tuple[str, str | None] | None = None
        """The spare's thread, asked for at spawn (`open_early`): its method and id."""
        self.early_turn: EarlyTurn | None = None
        """The launch prompt's turn, started as soon as the spare has opened the thread."""

    def trust_request(self) -> TrustRequest | None:
        """Ask as 0.169: in a git work tree with no trust recorded for it; a folder recorded
        untrusted is offered only to open restricted (trust_rule)."""
        from codex_tui.app.trust_rule import asks_trust, opens_restricted

        directory = shorten_path(str(self.project))
        if opens_restricted(self.config.projects, self.config.cwd):
            return TrustRequest(directory, self.is_git_repo, restricted=True)
        if not asks_trust(self.config.projects, self.config.cwd, self.is_git_repo):
            return None
        return TrustRequest(directory=directory, is_git_repo=self.is_git_repo)

    def record_trust(self, trusted: bool) -> None:
        """Write `projects."<root>".trust_level` to config.toml and reload the config."""
        from codex_core.config import set_project_trust_level  # tomlkit: only when asked

        set_project_trust_level(
            self.config.codex_home, self.project, "trusted" if trusted else "untrusted"
        )
        self.config = load_config(self.overrides, self.cli_overrides)

    def key_request(self) -> KeyRequest | None:
        """What to ask for when the provider wants a key and none is set or saved."""
        from codex_core.auth import OPENAI_API_KEY, load_api_key

        provider = self.config.model_provider
        if not provider.env_key and not provider.requires_openai_auth:
            return None
        if load_api_key(self.config.codex_home, provider) is not None:
            return None
        env_var = provider.env_key or OPENAI_API_KEY
        return KeyRequest(
            provider_name=provider.name,
            env_var=env_var,
            auth_file=shorten_path(str(self.config.codex_home / "auth.json")),
            can_paste=env_var == OPENAI_API_KEY or provider.requires_openai_auth,
        )

    def save_key(self, key: str) -> None:
        """Store the key in auth.json (0600)."""
        from codex_core.auth import save_api_key

        save_api_key(self.config.codex_home, key)

    def sessions(self) -> RolloutSessions:
        """Recorded sessions under CODEX_HOME."""
        return RolloutSessions(self.config.codex_home, self.config.cwd)

    def fork(self, rollout: Path, nth_user_message: int | None) -> Path:
        """A new rollout holding the session up to (not including) that user message."""
        from codex_core.rollout.manage import fork_rollout

        return fork_rollout(self.config.codex_home, rollout, nth_user_message)

    def save_model(self, model: str, effort: str | None) -> None:
        """`model` and `model_reasoning_effort` in config.toml, comments kept."""
        from codex_core.config.edit import set_default_model

        set_default_model(self.config.codex_home, model, effort)

    def logout(self) -> bool:
        """Delete auth.json, as `codex logout` does."""
        path = self.config.codex_home / "auth.json"
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        return True

    async def start(self, resume_path: Path | None) -> CoreClient:
        """A new thread, or one resumed from its rollout, on a `codex app-server` child of
        this process (its stdio; so parsing a streamed answer never holds the interpreter
        lock a keystroke needs; see `app_server_process`).

        Raises:
            RemoteError: The child could not start or refused (the message says why).
            LookupError: `resume_path` is not a Codex session.
        """
        import asyncio

        from codex_core.servers.app_server.remote import RemoteError
        from codex_tui.app.app_server_connection import CALL_TIMEOUT
        from codex_tui.app.app_server_core import AppServerCore
        from codex_tui.app.app_server_process import spawn_app_server

        thread_id = _thread_id(resume_path)
        method = "thread/start" if thread_id is None else "thread/resume"
        early, self.early = self.early, None
        if early is not None and early != (method, thread_id):  # another thread was asked for
            self.release_spare()
            early = None
        spare, self.spare = self.spare, None
        early_turn, self.early_turn = self.early_turn, None
        if spare is None or spare.poll() is not None:
            spare, early, early_turn = spawn_app_server(self.setup()), None, None
        already, presend = b"", {}
        if early_turn is not None:  # it reads the child's output until the thread's answer
            if not await asyncio.to_thread(early_turn.join, 2 * CALL_TIMEOUT):
                spare.kill()
                raise RemoteError(f"{method}: no answer within {2 * CALL_TIMEOUT:.0f} s")
            already, presend = bytes(early_turn.read), early_turn.sent
        log_path = shorten_path(str(self.config.codex_home / "log" / self.log_name))
        core = await AppServerCore.start_child(
            spare, log_path, early[0] if early else None, already=already, presend=presend
        )
        await core.open_child_thread(thread_id)
        return core

    def setup(self) -> dict[str, Any]:
        """What the app-server child is started with: the TUI's `-c` overrides and flags."""
        from codex_core.servers.app_server.local import flags_to_json

        return {"config": list(self.cli_overrides), "flags": flags_to_json(self.overrides)}

    def open_early(
        self,
        resume_path: Path | None,
        launch: tuple[str, list[str]] | None = None,
        watcher: Watcher | None = None,
    ) -> None:
        """Spawn the app-server child and ask it at once for the session the app opens first
        (new, or `resume_path`), so it is created while Textual loads; not when a question
        comes first (trust, an API key), whose answer changes the config. `launch`: the
        prompt and image paths the chat screen sends first; their turn starts as soon as
        the session is there (`early_turn`), unless a question comes first; `watcher` then
        follows what the child sends."""
        trust = self.trust_request()
        if self.early is not None or (trust is not None and not trust.restricted):
            return  # (opening restricted changes no config: the thread can start meanwhile)
        if self.key_request() is not None:
            return
        from codex_tui.app.app_server_connection import early_requests
        from codex_tui.app.app_server_process import AppServerProcessError, spawn_app_server
        from codex_tui.app.early_turn import EarlyTurn, launch_input

        try:
            thread_id = _thread_id(resume_path)
            spare = self.spare
            if spare is None or spare.poll() is not None:
                spare = spawn_app_server(self.setup())
        except (LookupError, AppServerProcessError) as err:
            log.warning("%s", err)  # `start` tries again and reports the failure
            return
        self.spare = spare
        try:
            assert spare.stdin is not None
            spare.stdin.write(early_requests(thread_id))  # a few hundred bytes: never blocks
            spare.stdin.flush()
        except OSError:  # the child is gone: `start` spawns another
            return
        self.early = ("thread/start" if thread_id is None else "thread/resume", thread_id)
        # Behind a question (a folder recorded untrusted) the prompt waits for its answer:
        # its turn would reach the model and run tools before the user chose to open.
        if launch is not None and trust is None and (items := launch_input(*launch)):
            self.early_turn = EarlyTurn(spare, self.early[0], items, watcher)
            self.early_turn.start()

    def prepare_session(self) -> None:
        """Spawn an app-server child now (it loads the core meanwhile), unless one waits."""
        if self.spare is None or self.spare.poll() is not None:
            from codex_tui.app.app_server_process import AppServerProcessError, spawn_app_server

            try:
                self.spare = spawn_app_server(self.setup())
            except AppServerProcessError as err:
                log.warning("%s", err)  # `start` spawns one itself and reports the failure

    def release_spare(self) -> None:
        """Let an unused early app-server child end: it exits at end of input, once it has
        loaded (not waited for: leaving is not delayed by it)."""
        spare, self.spare, self.early = self.spare, None, None
        early_turn, self.early_turn = self.early_turn, None
        if early_turn is not None:
            early_turn.cancel()  # before its stdin closes
        if spare is not None and spare.stdin is not None:
            spare.stdin.close()


def _thread_id(resume_path: Path | None) -> str | None:
    """The id of the session recorded at `resume_path` (None: a new one).

    Raises:
        LookupError: `resume_path` is not a Codex session.
    """
    if resume_path is None:
        return None
    from codex_core.rollout.head import read_head

    head = read_head(str(resume_path))
    if head.session_id is None:
        raise LookupError(f"{shorten_path(str(resume_path))}: {head.problem}")
    return head.session_id
