"""The launch prompt's turn, started as soon as the app-server child has opened the thread.

A TUI launched with a prompt asks its child for the thread at spawn (`RealBoot.open_early`);
the chat screen would send the prompt only once Textual has loaded and the session's header
is on the screen. Instead a thread here reads the child's answers up to the thread's and
writes at once what the app sends next — `history/metadata/read` and the prompt's
`turn/start`, the same lines with the same ids — so the model request goes out while the UI
is still loading. The app's core then takes over the bytes read here and the answers to
those two requests (`AppServerCore.start_child(presend=...)`), and when the screen sends
them they are matched, not sent again: the wire carries what it carried before, earlier.

Standard library only (and the connection module the early requests come from): this runs
before anything heavy loads.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Sequence
from typing import Any

from codex_tui.app.app_server_connection import early_id

HISTORY = "history/metadata/read"
TURN_START = "turn/start"
READ_CHUNK = 1 << 16

Presend = dict[str, tuple[str, dict[str, Any]]]
"""Requests written ahead of the app: method → (request id, params)."""


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
        self, process: subprocess.Popen[bytes], method: str, items: list[dict[str, Any]]
    ) -> None:
        self.process = process
        self.method = method
        self.items = items
        self.read = bytearray()
        """Everything taken from the child's stdout (the core reads it first)."""
        self.sent: Presend = {}
        """What was written, once it was."""
        self._lock = threading.Lock()
        self._cancelled = False
        self._thread = threading.Thread(target=self._run, name="early-turn", daemon=True)

    def start(self) -> None:
        """Start waiting for the thread's answer."""
        self._thread.start()

    def cancel(self) -> None:
        """Write nothing from now on (the child's stdin is about to close or be used)."""
        with self._lock:
            self._cancelled = True

    def join(self, timeout: float) -> bool:
        """Wait until the thread's answer was read (or the child's output ended); False
        when it is still being waited for after `timeout` seconds."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        try:
            result = self._thread_answer()
        except (OSError, ValueError):  # a pipe gone or not JSON: the core finds out and says so
            return
        thread = result.get("thread") if isinstance(result, dict) else None
        thread_id = thread.get("id") if isinstance(thread, dict) else None
        if isinstance(thread_id, str):
            self._send(thread_id)

    def _thread_answer(self) -> Any:
        """The result of the thread method's request (None: an error, or no answer)."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        wanted = early_id(self.method)
        scanned = 0
        while chunk := os.read(fd, READ_CHUNK):
            self.read += chunk
            while (end := self.read.find(b"\n", scanned)) >= 0:
                line, scanned = bytes(self.read[scanned:end]), end + 1
                if not line.strip():
                    continue
                message = json.loads(line)
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
