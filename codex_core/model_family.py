"""What codex knows about model families: context window sizes, reasoning, command tools."""

from __future__ import annotations

from typing import Literal

_CONTEXT_WINDOWS: tuple[tuple[str, int], ...] = (
    ("gpt-5", 272_000),
    ("codex-", 272_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("o3", 200_000),
    ("o4-mini", 200_000),
    ("gpt-oss", 131_072),
)


_REASONING_PREFIXES = ("gpt-5", "codex-", "o1", "o3", "o4", "gpt-oss")

_WIRE_EFFORTS = {"ultra": "medium", "persistent": "disabled"}
"""Efforts Codex 0.169 rewrites before sending them (observed in its requests for a model it
has no metadata for); every other word goes out as the user set it."""


def supports_reasoning(model: str) -> bool:
    """Whether `model/list` offers reasoning efforts for `model` (a known reasoning family).

    Requests do not ask this: like Codex 0.169 with a model it has no metadata for, every
    Responses request carries the configured effort and summary (`wire_effort`).
    """
    return model.startswith(_REASONING_PREFIXES)


def wire_effort(effort: str | None) -> str | None:
    """`reasoning.effort` as Codex 0.169 sends the configured effort (`max` included)."""
    return None if effort is None else _WIRE_EFFORTS.get(effort, effort)


def supports_verbosity(model: str) -> bool:
    """Whether `model` takes `text.verbosity` (`model_verbosity`): GPT-5, not its codex variants."""
    return model.startswith("gpt-5") and "codex" not in model


def context_window_for(model: str) -> int | None:
    """The context window of a known model family, else None."""
    for prefix, window in _CONTEXT_WINDOWS:
        if model.startswith(prefix):
            return window
    return None


ExecToolStyle = Literal["unified_exec", "shell"]


def exec_tool_style(model: str, wire_api: str = "responses") -> ExecToolStyle:
    """Which command tools a model is offered: `exec_command` + `write_stdin`, or `shell`.

    Codex 0.169 offers unified exec to every model it serves over the Responses API, known
    or not (checked against its requests). Chat Completions providers (local and
    OpenAI-compatible servers, `--oss`) get the one-shot `shell` tool, which any
    function-calling model can use without a terminal session protocol.
    """
    del model  # no Responses model family is trained on `shell` any more
    return "shell" if wire_api == "chat" else "unified_exec"


def offers_update_plan(model: str, wire_api: str = "responses", *, enabled: bool = False) -> bool:
    """Whether `update_plan` is offered to `model`: only when the config asks for it.

    Codex 0.169 left it out of the tools of every model it was run with (gpt-5.1-codex,
    gpt-5, gpt-5.2, gpt-5.4, gpt-5.5, gpt-4.1, o3, gpt-oss-20b, codex-mini-latest; known or
    not) and offers it, right after `write_stdin`, only with `[tools.update_plan] enabled =
    true` (`enabled`). The handler stays registered, so a model that calls it anyway still
    gets its plan shown.
    """
    del model, wire_api  # no family opts in by itself
    return enabled
