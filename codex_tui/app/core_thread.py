"""The session on its own thread and event loop, so streaming never starves the UI's loop.

The core parses thousands of SSE deltas a second; on the UI's loop each of its steps ran
for tens of milliseconds between paints, and keystrokes waited behind them. Here the core's
loop runs on a worker thread; its events are handed to the UI loop in bursts (one wake-up
per burst, not per event), and ops go the other way with `run_coroutine_threadsafe`.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Future

from codex_core.protocol import Event, Op, ShutdownCompleteEvent
from codex_tui.app.core import CoreClient


class ThreadedCore:
    """A `CoreClient` for the UI loop over a session that lives on another loop."""

    def __init__(self, inner: CoreClient, core_loop: asyncio.AbstractEventLoop) -> None:
        self._inner = inner
        self._core_loop = core_loop
        self._ui_loop = asyncio.get_running_loop()
        self._buffer: deque[Event] = deque()
        self._lock = threading.Lock()
        self._waiter: asyncio.Future[None] | None = None
        self._wake_scheduled = False

    async def submit(self, op: Op) -> str:
        """Queue an op on the core's loop; returns its submission id."""
        future = asyncio.run_coroutine_threadsafe(self._inner.submit(op), self._core_loop)
        return await asyncio.wrap_future(future)

    async def next_event(self) -> Event:
        """The next event the core emitted (waits on the UI loop, never blocks it)."""
        while True:
            with self._lock:
                if self._buffer:
                    return self._buffer.popleft()
                waiter = self._ui_loop.create_future()
                self._waiter = waiter
            await waiter

    async def forward(self) -> None:
        """Run on the core's loop: move events across until the session shuts down."""
        while True:
            event = await self._inner.next_event()
            with self._lock:
                self._buffer.append(event)
                wake = self._waiter is not None and not self._wake_scheduled
                self._wake_scheduled = self._wake_scheduled or wake
            if wake:
                self._ui_loop.call_soon_threadsafe(self._wake)
            if isinstance(event.msg, ShutdownCompleteEvent):
                return

    def _wake(self) -> None:
        with self._lock:
            waiter, self._waiter = self._waiter, None
            self._wake_scheduled = False
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


async def start_on_thread(
    create: Callable[[], Awaitable[CoreClient]], name: str = "codex-core"
) -> ThreadedCore:
    """Create a session with `create` on a new thread's event loop; the thread ends (and
    its loop closes) after the session's `shutdown_complete`.

    Raises:
        Exception: Whatever `create` raised.
    """
    ready: Future[ThreadedCore] = Future()
    ui_loop = asyncio.get_running_loop()

    async def run() -> None:
        try:
            inner = await create()
            core = await _make_on(ui_loop, inner, asyncio.get_running_loop())
        except BaseException as err:  # handed to the UI loop, which re-raises it
            ready.set_exception(err)
            return
        ready.set_result(core)
        await core.forward()

    thread = threading.Thread(target=asyncio.run, args=(run(),), name=name, daemon=True)
    thread.start()
    return await asyncio.wrap_future(ready)


async def _make_on(
    ui_loop: asyncio.AbstractEventLoop, inner: CoreClient, core_loop: asyncio.AbstractEventLoop
) -> ThreadedCore:
    """Build the client on the UI loop (its futures belong there)."""

    async def build() -> ThreadedCore:
        return ThreadedCore(inner, core_loop)

    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(build(), ui_loop))
