"""The two ways a tool handler can fail, as in the Codex core.

    Exception
    ├── RespondToModel      the text goes back as the call's output; the turn goes on
    │                       (bad arguments, NUL in a path, unknown tool, sandbox denial)
    ├── FatalToolError      the turn ends with an `error` event
    └── TurnAbortRequested  the user chose `abort` in an approval: the turn ends aborted

Anything else a handler raises is a bug: the kernel logs it with its traceback and answers
the model as if it were `RespondToModel`, so one broken tool never wedges a turn.
"""

from __future__ import annotations


class RespondToModel(Exception):
    """The call cannot be done as asked; `str(err)` is the output the model receives."""


class FatalToolError(Exception):
    """The turn cannot go on; `str(err)` is shown to the user as an `error` event."""


class TurnAbortRequested(Exception):
    """A tool learned that the user wants the whole turn stopped (`abort` decision)."""
