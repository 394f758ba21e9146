"""The launch prompt's turn, started as soon as the app-server child has opened the thread.

A TUI launched with a prompt asks its child for the thread at spawn (`RealBoot.open_early`);
the chat screen would send the prompt only once Textual has loaded and the session's header
is on the screen. Instead a thread here reads the child's answers up to the thread's and
writes at once what the app sends next — `history/metadata/read` and the prompt's
`turn/start`, the same lines with the same ids — so the model request goes out while the UI
is still loading. The app's core then takes over the bytes read here and the answers to
those two requests (`AppServerCore.start_child(presend=...)`), and when the screen sends
them they are matched, not sent again: the wire carries what it carried before, earlier.

With a `Watcher` (the session frame's painter), the reader then goes on: each message the
child sends is shown to it, until it wants no more, the app's core takes over (`join`) or
the child's output ends; what was read is still handed to the core, unchanged.

Standard library only (and the connection module the early requests come from): this runs
before anything heavy loads.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import threading
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from codex_tui.app.app_server_connection import early_id

HISTORY = "history/metadata/read"
TURN_START = "turn/start"
READ_CHUNK = 1 << 16

Presend = dict[str, tuple[str, dict[str, Any]]]
"""Requests written ahead of the app: method → (request id, params)."""


class Watcher(Protocol):
    """Follows the child's messages once the launch prompt's turn has been asked for."""

    def opened(self, result: dict[str, Any]) -> bool:
        """The thread method's result; False: no more messages."""
        ...

    def message(self, message: dict[str, Any]) -> bool:
        """One message of the child after that; False: no more messages."""
        ...


def launch_input(text: str, images: Sequence[str]) -> list[dict[str, Any]]:
    """The launch prompt as `turn/start` input: what the chat screen's message becomes
    (`Outbox.send`'s items through `app_server_ops.wire_input`)."""
    items: list[dict[str, Any]] = [{"type": "text", "text": text, "text_elements": []}]
    if not text:
        items = []
    items += [{"type": "localImage", "path": str(path)} for path in images]
    return items


def request_line(request_id: str, method: str, params: Any) -> bytes:
    """One request as `AppServerLink` sends it on a child's stdin."""
    return json.dumps({"id": request_id, "method": method, "params": params}).encode() + b"\n"


class EarlyTurn:
    """Reads a freshly spawned child's output until the answer to the thread method written
    at spawn, then writes the launch prompt's requests (once, unless cancelled first)."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        method: str,
        items: list[dict[str, Any]],
        watcher: Watcher | None = None,
    ) -> None:
        self.process = process
        self.method = method
        self.items = items
        self.watcher = watcher
        self.read = bytearray()
        """Everything taken from the child's stdout (the core reads it first)."""
        self.sent: Presend = {}
        """What was written, once it was."""
        self._lock = threading.Lock()
        self._cancelled = False
        self._scanned = 0
        """Where in `read` the next line starts."""
        self._wake = os.pipe() if watcher is not None else None
        """Written to and closed by `stop` (the watcher's reading ends); the reader closes
        the other end."""
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="early-turn", daemon=True)

    def start(self) -> None:
        """Start waiting for the thread's answer."""
        self._thread.start()

    def cancel(self) -> None:
        """Write nothing from now on (the child's stdin is about to close or be used)."""
        with self._lock:
            self._cancelled = True
        self.stop()

    def stop(self) -> None:
        """Show the watcher no more messages (the thread's answer is still waited for)."""
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        if self._wake is not None:
            try:
                os.write(self._wake[1], b"x")  # the reader may be gone already: then EPIPE
            except OSError:
                pass
            os.close(self._wake[1])

    def join(self, timeout: float) -> bool:
        """Stop the watcher, then wait until the thread's answer was read (or the child's
        output ended); False when it is still being waited for after `timeout` seconds."""
        self.stop()
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        wake = self._wake
        try:
            result = self._thread_answer()
            thread = result.get("thread") if isinstance(result, dict) else None
            thread_id = thread.get("id") if isinstance(thread, dict) else None
            if isinstance(thread_id, str):
                self._send(thread_id)
                watching = self.watcher is not None and wake is not None and not self._stopped
                if watching and self.sent:
                    assert self.watcher is not None and wake is not None
                    self._follow(self.watcher, result, wake[0])
        except (OSError, ValueError):  # a pipe gone or not JSON: the core finds out and says so
            pass
        finally:
            if wake is not None:
                os.close(wake[0])

    def _lines(self) -> Iterator[dict[str, Any]]:
        """The messages in `read` not yet looked at (complete lines only)."""
        while (end := self.read.find(b"\n", self._scanned)) >= 0:
            line, self._scanned = bytes(self.read[self._scanned : end]), end + 1
            message = json.loads(line) if line.strip() else None
            if isinstance(message, dict):  # anything else is the core's to report
                yield message

    def _follow(self, watcher: Watcher, result: dict[str, Any], wake: int) -> None:
        """Show the watcher the thread's answer, then each message, until it wants no more
        or `stop` is called. The watcher only shows things: whatever goes wrong in it ends
        the watching, never the reading the core takes over."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        try:
            if not watcher.opened(result):
                return
            for message in self._lines():  # read with the thread's answer
                if not watcher.message(message):
                    return
            while True:
                ready, _, _ = select.select([fd, wake], [], [])
                if wake in ready or not (chunk := os.read(fd, READ_CHUNK)):
                    return
                self.read += chunk
                for message in self._lines():
                    if not watcher.message(message):
                        return
        except Exception:  # noqa: BLE001 (a display's bug must not cost the session)
            return

    def _thread_answer(self) -> Any:
        """The result of the thread method's request (None: an error, or no answer)."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        wanted = early_id(self.method)
        while chunk := os.read(fd, READ_CHUNK):
            self.read += chunk
            for message in self._lines():
                if message.get("id") == wanted and "method" not in message:
                    return message.get("result")
        return None

    def _send(self, thread_id: str) -> None:
        # The ids the app's core would give them: its first two calls on an early thread.
        requests: Presend = {
            HISTORY: (f"{HISTORY}-1", {"threadId": thread_id}),
            TURN_START: (f"{TURN_START}-2", {"threadId": thread_id, "input": self.items}),
        }
        data = b"".join(request_line(rid, method, p) for method, (rid, p) in requests.items())
        assert self.process.stdin is not None
        with self._lock:
            if self._cancelled:
                return
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(self.process.stdin.fileno(), view) :]
            except OSError:  # the child is gone: the core says so
                return
            self.sent = requests
