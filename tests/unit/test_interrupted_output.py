"""What the model is told about a call an interrupt cut off, as codex-rust 0.169 words it.

Observed with 0.169: an `exec_command` running (or waiting for its approval) 1.0 s →
`Wall time: 1.0 seconds\\naborted by user`; an MCP tool after 1.5 s → `aborted by user
after 1.5s`. Other calls keep the plain `aborted` (not observed differently).
"""

from __future__ import annotations

from codex_core.kernel import ABORTED_OUTPUT, ToolCall, interrupted_output


def test_interrupted_output_in_0169_words() -> None:
    command = ToolCall("c1", "exec_command", "function", '{"cmd": "sleep 30"}')
    mcp = ToolCall("c2", "hang", "function", "{}", namespace="mcp__probe")
    flat_mcp = ToolCall("c3", "mcp__probe__hang", "function", "{}")
    patch = ToolCall("c4", "apply_patch", "custom", "*** Begin Patch")
    assert interrupted_output(command, 1.04) == "Wall time: 1.0 seconds\naborted by user"
    assert interrupted_output(mcp, 1.5) == "aborted by user after 1.5s"
    assert interrupted_output(flat_mcp, 0.24) == "aborted by user after 0.2s"
    assert interrupted_output(patch, 3) == ABORTED_OUTPUT
