"""Params, results and notifications of the thread-naming, archive, steer and account methods."""

from __future__ import annotations

from typing import ClassVar, Literal

from codex_core.lite import Field
from codex_core.servers.app_server import model_goals
from codex_core.servers.app_server.model_items import UserInput
from codex_core.servers.app_server.model_notify import ServerMessage
from codex_core.servers.app_server.model_thread import Thread
from codex_core.servers.app_server.wire import ParamsModel, WireModel

# ------------------------------------------------------------------ threads and turns


class ThreadSetNameParams(ParamsModel):
    """`thread/name/set`: name a thread (recorded in session_index.jsonl)."""

    threadId: str
    name: str


class ThreadUnarchiveResponse(WireModel):
    """`thread/unarchive` result: the thread, back among the active sessions."""

    thread: Thread


class TurnSteerParams(ParamsModel):
    """`turn/steer`: more input for the running turn, which must be `expectedTurnId`."""

    threadId: str
    expectedTurnId: str
    input: list[UserInput]
    clientUserMessageId: str | None = None


class TurnSteerResponse(WireModel):
    """`turn/steer` result: the turn that takes the input."""

    turnId: str


class ThreadNameUpdatedNotification(ServerMessage):
    """A thread got a new name."""

    METHOD: ClassVar[str] = "thread/name/updated"
    threadId: str
    threadName: str | None = None


class ThreadUnarchivedNotification(ServerMessage):
    """A thread moved back from `archived_sessions/`."""

    METHOD: ClassVar[str] = "thread/unarchived"
    threadId: str


# ------------------------------------------------------------------ account


class GetAccountParams(ParamsModel):
    """`account/read` (`refreshToken` has nothing to refresh with an API key)."""

    refreshToken: bool = False


class ApiKeyAccount(WireModel):
    """Signed in with an API key."""

    type: Literal["apiKey"] = "apiKey"


class GetAccountResponse(WireModel):
    """`account/read` result."""

    account: ApiKeyAccount | None = None
    requiresOpenaiAuth: bool
    userId: str | None = None


class LoginAccountParams(ParamsModel):
    """`account/login/start`: `{"type": "apiKey", "apiKey"}`; the ChatGPT kinds are refused."""

    type: str
    apiKey: str | None = None


class LoginAccountResponse(WireModel):
    """`account/login/start` result for an API key."""

    type: Literal["apiKey"] = "apiKey"


class CancelLoginAccountParams(ParamsModel):
    """`account/login/cancel`."""

    loginId: str


class AccountLoginCompletedNotification(ServerMessage):
    """A login finished (for an API key: at once)."""

    METHOD: ClassVar[str] = "account/login/completed"
    loginId: str | None = None
    success: bool
    error: str | None = None


class AccountUpdatedNotification(ServerMessage):
    """The account changed: `authMode` is `apikey`, or null after logout."""

    METHOD: ClassVar[str] = "account/updated"
    authMode: Literal["apikey"] | None = None
    planType: str | None = Field(default=None)


NOTIFICATIONS: tuple[type[ServerMessage], ...] = (
    ThreadNameUpdatedNotification,
    ThreadUnarchivedNotification,
    AccountLoginCompletedNotification,
    AccountUpdatedNotification,
    *model_goals.NOTIFICATIONS,
)
"""The notifications these methods send (beside `model_notify.NOTIFICATIONS`)."""
