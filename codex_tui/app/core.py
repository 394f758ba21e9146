"""What the app needs from the outside world: the core, the session list and start-up steps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol

from codex_core.items import client as c
from codex_core.protocol import Op


class CoreClient(Protocol):
    """The two calls the TUI makes on its session: ops out, item notices in."""

    async def submit(self, op: Op) -> str:
        """Queue an op; returns its submission id."""
        ...

    async def next_notices(self) -> list[c.ClientNotice]:
        """The notices of the session's next message, waiting if none is ready; the last
        ones are `SessionEnded`."""
        ...


@dataclass(frozen=True)
class SessionSummary:
    """One row of the resume picker."""

    id: str
    path: Path
    updated: datetime
    cwd: str
    branch: str | None
    preview: str


@dataclass(frozen=True)
class SessionPage:
    """A page of recorded sessions, newest first, and the cursor of the next page.

    `skipped` holds the paths of files met on the way that are not Codex sessions.
    """

    items: list[SessionSummary]
    next_cursor: str | None
    skipped: list[str] = field(default_factory=list)


class SessionSource(Protocol):
    """Pages of recorded sessions (called from a worker thread: may block on disk)."""

    def list_page(self, cursor: str | None, show_all: bool) -> SessionPage:
        """One page; `show_all` includes sessions of other directories."""
        ...


@dataclass(frozen=True)
class TrustRequest:
    """The directory that has no trust decision yet, or (`restricted`) one recorded untrusted:
    then the screen only offers to open it restricted (or quit) and records nothing."""

    directory: str
    is_git_repo: bool
    restricted: bool = False


@dataclass(frozen=True)
class KeyRequest:
    """The provider whose API key is missing."""

    provider_name: str
    env_var: str
    auth_file: str
    can_paste: bool = True


class Boot(Protocol):
    """The start-up steps the app walks through before the session starts."""

    def trust_request(self) -> TrustRequest | None:
        """The directory to ask about, or None when 0.169 would not ask (trust_rule)."""
        ...

    def record_trust(self, trusted: bool) -> None:
        """Save the decision and reload the config."""
        ...

    def key_request(self) -> KeyRequest | None:
        """What to ask for when the provider needs an API key and none is set."""
        ...

    def save_key(self, key: str) -> None:
        """Store a pasted API key (auth.json, mode 0600)."""
        ...

    def sessions(self) -> SessionSource:
        """Where the resume picker reads recorded sessions from."""
        ...

    async def start(self, resume_path: Path | None) -> CoreClient:
        """Create the session (fresh, or resumed from a rollout)."""
        ...

    def prepare_session(self) -> None:
        """Another session may start soon (a slash command or a backtrack is being typed):
        get ready so that `start` is quick. Cheap to call often."""
        ...

    def fork(self, rollout: Path, nth_user_message: int | None) -> Path:
        """Copy a session's rollout into a new session, keeping what came before its
        `nth_user_message` (0-based; None keeps everything); returns the new rollout.

        Raises:
            OSError: The copy could not be written.
        """
        ...

    def save_model(self, model: str, effort: str | None) -> None:
        """Make the model (and effort) the default in config.toml.

        Raises:
            Exception: The config could not be written (the message says why).
        """
        ...

    def logout(self) -> bool:
        """Forget the saved API key; False if there was none."""
        ...


@dataclass
class LaunchOptions:
    """How the app was started: first prompt, images, picker, display choices."""

    version: str = "0.0.0"
    prompt: str | None = None
    images: list[Path] = field(default_factory=list)
    show_picker: bool = False
    resume_path: Path | None = None
    show_all: bool = False
    hide_agent_reasoning: bool = False
    model_context_window: int | None = None
    animate: bool = True
    codex_home: str | None = None
    notifications: bool | list[str] = False
    draft: str = ""
    """Text typed on the first frame, for the composer."""
    send_draft: bool = False
    """Enter was pressed after the draft: send it once the session is ready."""
    notice: str | None = None
    """Shown once after the next session's past (a backtrack's fork says what it did)."""
    fork_picked: bool = False
    """`codex fork`: the session chosen in the picker is forked, and the fork opened."""
    stop_frame: Callable[[], None] | None = None
    """Stops the first frame's painting (`FirstFrame.stop_painting`): called before the
    app first draws."""
