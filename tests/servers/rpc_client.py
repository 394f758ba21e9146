"""A JSON-lines client for `codex app-server` over a real pipe that schema-checks what it gets."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

CODEX = Path(sys.executable).parent / "codex"
Message = dict[str, Any]


_VALIDATORS: dict[Path, dict[tuple[str, Any], Any]] = {}
_SCHEMAS: dict[Path, dict[str, Any]] = {}


def _arms_by_method(schema: dict[str, Any]) -> dict[str, Any]:
    """The `oneOf` arms of `schema` by the one method each requires; {} unless every arm
    requires a `method` of one value and no two arms share it."""
    arms: dict[str, Any] = {}
    for arm in schema.get("oneOf") or []:
        enum = arm.get("properties", {}).get("method", {}).get("enum")
        required = "method" in arm.get("required", [])
        if not (required and isinstance(enum, list) and len(enum) == 1) or enum[0] in arms:
            return {}
        arms[enum[0]] = arm
    return arms


class SchemaChecker:
    """Validates server messages against the Codex 0.169 schema bundle."""

    def __init__(self, root: Path) -> None:
        import jsonschema

        self._jsonschema = jsonschema
        self.root = root
        # shared by the checkers of one bundle: each test makes one, the schemas stay put
        self._cache = _VALIDATORS.setdefault(root, {})
        self._schemas = _SCHEMAS.setdefault(root, {})
        requests = json.loads((root / "ClientRequest.json").read_text())
        self.response_file: dict[str, str] = {}
        for arm in requests["oneOf"]:
            method = arm["properties"]["method"]["enum"][0]
            ref = arm["properties"].get("params", {}).get("$ref", "")
            title = ref.rsplit("/", 1)[-1].removesuffix("Params")
            if not title:  # a method without params: its name in CamelCase
                title = "".join(part[:1].upper() + part[1:] for part in method.split("/"))
            name = title + "Response"
            nested = f"v2/{name}.json"
            self.response_file[method] = nested if (root / nested).is_file() else f"{name}.json"
        self.response_file["initialize"] = "v1/InitializeResponse.json"
        self.checked = 0

    def _validator(self, name: str, method: Any = None) -> Any:
        """The validator of schema file `name`; for a message naming `method`, the file's
        one `oneOf` arm of that method, with the file's other keywords and definitions.

        The notification and request files are a `oneOf` discriminated by a required
        single-value `method` enum, so a message is valid against the whole file exactly
        when it is valid against the arm of its method; jsonschema would otherwise try all
        86 arms of every notification (~15 ms each, the bulk of these tests' own CPU).
        A method no arm names falls back to the whole file, which reports the mismatch.
        """
        key = (name, method)
        if key in self._cache:
            return self._cache[key]
        if name not in self._schemas:
            self._schemas[name] = json.loads((self.root / name).read_text())
        schema = self._schemas[name]
        arm = _arms_by_method(schema).get(method) if isinstance(method, str) else None
        if arm is not None:
            rest = {k: v for k, v in schema.items() if k != "oneOf"}
            schema = {**rest, "allOf": [*rest.get("allOf", []), arm]}
        elif method is not None:
            return self._validator(name)
        self._cache[key] = self._jsonschema.Draft7Validator(schema)
        return self._cache[key]

    def check(self, message: Message, request_method: str | None) -> None:
        """Raise AssertionError when `message` does not match the schema."""
        if "result" in message:
            assert request_method is not None, f"response to an unknown request: {message}"
            name = self.response_file[request_method]
            target = message["result"]
        elif "error" in message:
            name, target = "JSONRPCError.json", message
        elif "id" in message:
            name, target = "ServerRequest.json", message
        else:
            assert isinstance(message.get("emittedAtMs"), int), message
            name = "ServerNotification.json"
            target = {k: v for k, v in message.items() if k != "emittedAtMs"}
        validator = self._validator(name, target.get("method") if "result" not in message else None)
        errors = sorted(validator.iter_errors(target), key=lambda e: e.path)
        assert not errors, f"{name}: {errors[0].message} at {list(errors[0].path)} in {message}"
        self.checked += 1


class AppServerClient:
    """Runs the console script `codex … app-server` and talks to it line by line."""

    def __init__(
        self,
        codex_home: Path,
        cwd: Path,
        flags: list[str],
        checker: SchemaChecker | None,
        argv: list[str] | None = None,
    ) -> None:
        env = {**os.environ, "CODEX_HOME": str(codex_home), "OPENAI_API_KEY": "sk-test"}
        self.argv = argv or [str(CODEX), *flags, "app-server", "--listen", "stdio://"]
        self.proc = subprocess.Popen(
            self.argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.checker = checker
        self.received: list[Message] = []
        self._queue: queue.Queue[Message | None] = queue.Queue()
        self._methods: dict[Any, str] = {}
        self._next_id = 0
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(json.loads(line))
        self._queue.put(None)

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        self.stderr = self.proc.stderr.read()

    def send_raw(self, line: str) -> None:
        """Write one line as it is."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def send(self, message: Message) -> None:
        """Write a message; requests are remembered so their responses can be checked."""
        if "method" in message and "id" in message:
            self._methods[message["id"]] = message["method"]
        self.send_raw(json.dumps(message))

    def request(self, method: str, params: Any = None, *, request_id: Any = None) -> Any:
        """Send a request; returns its id."""
        if request_id is None:
            self._next_id += 1
            request_id = self._next_id
        message: Message = {"id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return request_id

    def next(self, timeout: float = 20) -> Message:
        """The next message from the server (schema-checked)."""
        try:
            message = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(
                f"no message within {timeout}s; stderr: {self.stderr[-2000:]!r}"
            ) from None
        assert message is not None, f"the server closed stdout; stderr: {self.stderr[-2000:]!r}"
        self.received.append(message)
        if self.checker is not None:
            self.checker.check(message, self._methods.get(message.get("id")))
        return message

    def wait_for(self, predicate: Callable[[Message], bool], timeout: float = 20) -> Message:
        """Read until a message matches; the skipped ones stay in `received`."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(max(0.1, deadline - time.monotonic()))
            if predicate(message):
                return message

    def call(self, method: str, params: Any = None, timeout: float = 20) -> Message:
        """A request and its response (result or error)."""
        request_id = self.request(method, params)
        return self.wait_for(lambda m: m.get("id") == request_id and "method" not in m, timeout)

    def notification(self, method: str, timeout: float = 20) -> Message:
        """The next notification with `method`."""
        return self.wait_for(lambda m: m.get("method") == method and "id" not in m, timeout)

    def quiet_for(self, seconds: float) -> list[Message]:
        """Whatever arrives within `seconds`."""
        out: list[Message] = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = self._queue.get(timeout=left)
            except queue.Empty:
                break
            if message is None:
                break
            self.received.append(message)
            if self.checker is not None:
                self.checker.check(message, self._methods.get(message.get("id")))
            out.append(message)
        return out

    def initialize(self) -> Message:
        """The handshake; returns the initialize result."""
        result = self.call("initialize", {"clientInfo": {"name": "tests", "version": "1.0"}})
        self.send({"method": "initialized"})
        return result

    def close(self) -> int:
        """Close stdin and wait for a clean exit."""
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("app-server did not exit after stdin closed") from None
