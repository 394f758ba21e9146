"""The approval requests of a turn and MCP servers' questions (elicitations), shown one modal
at a time in the order they came."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App

from codex_core.frontend.approvals import ApprovalRequest, approval_op
from codex_core.items import notices as n
from codex_core.protocol import InterruptOp, Op, ResolveElicitationOp
from codex_tui.app.turn_timer import TurnTimer

if TYPE_CHECKING:
    from codex_tui.app.screens.approval import ApprovalAnswer
    from codex_tui.app.screens.elicitation import ElicitationAnswer


class ApprovalHost(Protocol):
    """What the approval queue needs from the chat screen."""

    timer: TurnTimer

    @property
    def app(self) -> App[Any]:
        """The app the modal is pushed on."""
        ...

    @property
    def cwd(self) -> str | None:
        """The session's working directory (patch paths are shown relative to it)."""
        ...

    async def submit_op(self, op: Op) -> None:
        """Submit the decision."""
        ...

    def refresh_status(self) -> None:
        """Redraw the status line (it says when it waits for the user)."""
        ...


class ApprovalQueue:
    """Requests wait here while another one is on screen."""

    def __init__(self, host: ApprovalHost) -> None:
        self.host = host
        self.waiting: deque[ApprovalRequest | n.ElicitationRequested] = deque()
        self.open = False

    def add(self, request: ApprovalRequest | n.ElicitationRequested) -> None:
        """Queue a request; show it now if no other modal is open."""
        self.waiting.append(request)
        if not self.open:
            self._next()

    def drop_all(self) -> None:
        """The turn ended: forget waiting requests and close the open modal."""
        self.waiting.clear()
        if self.open and isinstance(self.host.app.screen, _modal_screens()):
            self.open = False
            self.host.app.pop_screen()

    def decided(self, call_id: str) -> None:
        """The request for `call_id` was answered elsewhere (another client of the thread):
        forget it, or close its prompt if it is on screen."""
        self.waiting = deque(r for r in self.waiting if _call_id(r) != call_id)
        screen = self.host.app.screen
        if (
            self.open
            and isinstance(screen, _modal_screens()[0])
            and screen.request.item_id == call_id
        ):
            self.open = False
            self.host.timer.resume()
            self.host.app.pop_screen()
            self.host.refresh_status()
            self._next()

    def _next(self) -> None:
        if not self.waiting:
            return
        host = self.host
        request = self.waiting.popleft()
        self.open = True
        host.timer.pause()
        host.refresh_status()
        if isinstance(request, n.ElicitationRequested):
            self._elicit(request)
            return

        async def answered(answer: ApprovalAnswer | None) -> None:
            self.open = False
            host.timer.resume()
            decision = answer.decision if answer is not None else "abort"
            prefix = answer.remember_prefix if answer is not None else None
            # The session answers with `approval_decision`, which draws the decision line.
            await host.submit_op(approval_op(request, decision, remember_prefix=prefix))
            if answer is not None and answer.interrupt and _is_mcp(request):
                await host.submit_op(InterruptOp())  # cancelling an MCP call alone goes on
            self._next()

        from codex_tui.app.screens.approval import ApprovalScreen

        host.app.push_screen(ApprovalScreen(request, host.cwd), callback=answered)

    def _elicit(self, request: n.ElicitationRequested) -> None:
        from codex_tui.app.screens.elicitation import ElicitationAnswer, ElicitationScreen

        host = self.host

        async def answered(answer: ElicitationAnswer | None) -> None:
            self.open = False
            host.timer.resume()
            answer = answer or ElicitationAnswer("cancel")
            await host.submit_op(
                ResolveElicitationOp(
                    server_name=request.server_name,
                    request_id=request.request_id,
                    decision=answer.action,
                    content=answer.content,
                )
            )
            self._next()

        host.app.push_screen(ElicitationScreen(request), callback=answered)


def _modal_screens() -> tuple[type[Any], type[Any]]:
    """The approval and elicitation screens (loaded with the first request: a launch shows
    neither before its answer)."""
    from codex_tui.app.screens.approval import ApprovalScreen
    from codex_tui.app.screens.elicitation import ElicitationScreen

    return ApprovalScreen, ElicitationScreen


def _call_id(request: ApprovalRequest | n.ElicitationRequested) -> str | None:
    return None if isinstance(request, n.ElicitationRequested) else request.item_id


def _is_mcp(request: ApprovalRequest) -> bool:
    """An MCP tool call's approval (`mcp SERVER TOOL ARGS`)."""
    return isinstance(request, n.CommandApprovalRequested) and request.command[:1] == ("mcp",)
