"""The head of a rollout file: its session_meta and first real user message, read cheaply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from codex_core.rollout.format import is_injected_text, real_user_text
from codex_core.rollout.reader import parse_line

# A head never needs more than this; multi-MB rollouts are never read whole for a listing.
HEAD_MAX_BYTES = 1 << 20
HEAD_MAX_LINES = 200
PREVIEW_MAX_CHARS = 1000


@dataclass(frozen=True)
class Head:
    """What a listing shows about a session, taken from the start of its rollout."""

    session_id: str | None = None
    created_at: str | None = None
    cwd: str | None = None
    git_branch: str | None = None
    model_provider: str | None = None
    source: str | None = None
    preview: str | None = None
    problem: str | None = None  # why the file is not a Codex session; None when it is one


def _source(value: Any) -> str | None:
    """The session's source kind: `cli`, `exec`, …; an object source such as
    `{"subagent": …}` is named by its key."""
    if isinstance(value, dict) and len(value) == 1:
        return _text(next(iter(value)))
    return _text(value)


def _text(value: Any) -> str | None:
    """A string field, with lone surrogates (valid JSON, invalid UTF-8) made printable."""
    if not isinstance(value, str):
        return None
    try:
        value.encode()
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return value


def _preview(line_type: str, payload: dict[str, Any]) -> str | None:
    """The user-typed text a line carries, if it is a real user message."""
    if line_type == "event_msg" and payload.get("type") == "user_message":
        text = _text(payload.get("message"))
    elif line_type == "response_item":
        text = real_user_text(payload)
    else:
        return None
    text = _text(text)
    if text is None or not text.strip() or is_injected_text(text):
        return None
    return text.strip()[:PREVIEW_MAX_CHARS]


def _meta_problem(first: bytes | None, meta_seen: bool) -> str:
    """Why a head without a usable session_meta is not a session, in a few words."""
    if first is None:
        return "the file is empty"
    if meta_seen:
        return "its session_meta has no session id"
    if len(first) >= HEAD_MAX_BYTES:
        return f"its first line is longer than {HEAD_MAX_BYTES // (1 << 20)} MiB"
    if parse_line(first) is not None:
        return "it does not start with a session_meta line"
    return "its first line is not a rollout record"


def read_head(path: str) -> Head:
    """Read just enough of a rollout to find its session_meta and first real user message.

    Stops at the first user message, after `HEAD_MAX_LINES` lines or `HEAD_MAX_BYTES` bytes.
    A file without a session_meta carrying a string id there is not a Codex session: its
    `Head` has only `problem` set, and listings skip it with a warning.
    """
    meta: dict[str, Any] | None = None
    meta_seen = False
    first: bytes | None = None
    preview: str | None = None
    budget = HEAD_MAX_BYTES
    try:
        with open(path, "rb") as handle:
            for _ in range(HEAD_MAX_LINES):
                raw = handle.readline(budget)
                if not raw:
                    break
                budget -= len(raw)
                if first is None and raw.strip():
                    first = raw
                if not raw.endswith(b"\n") and budget <= 0:
                    break  # the budget ran out in the middle of a line
                line = parse_line(raw)
                if line is None:
                    continue
                if line.type == "session_meta" and meta is None:
                    meta_seen = True
                    if _text(line.payload.get("id")):
                        meta = line.payload
                elif preview is None:
                    preview = _preview(line.type, line.payload)
                if preview is not None and meta is not None:
                    break
    except OSError as err:
        return Head(problem=f"it cannot be read ({err.strerror or err})")
    if meta is None:
        return Head(problem=_meta_problem(first, meta_seen))
    git = meta.get("git")
    branch = _text(git.get("branch")) if isinstance(git, dict) else None
    return Head(
        session_id=_text(meta.get("id")),
        created_at=_text(meta.get("timestamp")),
        cwd=_text(meta.get("cwd")),
        git_branch=branch,
        model_provider=_text(meta.get("model_provider")),
        source=_source(meta.get("source")),
        preview=preview,
    )
