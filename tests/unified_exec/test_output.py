"""What a unified exec call returns to the model: token estimate, head/tail cut, framing.

As Codex 0.169: tokens are UTF-8 bytes / 4 rounded up; output over the budget keeps the
first and last budget×4/2 bytes around `…K tokens truncated…`, after a warning naming the
original token count and the number of lines.
"""

from __future__ import annotations

import re

from codex_core.unified_exec.output import approx_tokens, format_response, truncate_to_tokens


def test_output_tokens_are_bytes_over_four_rounded_up() -> None:
    assert [approx_tokens(t) for t in ("", "a", "abcd", "abcde", "é", "ééé")] == [0, 1, 1, 2, 1, 2]


def test_output_within_budget_is_unchanged() -> None:
    text = "line one\nline two\n"
    assert truncate_to_tokens(text, approx_tokens(text)) == text


def test_output_over_budget_keeps_head_and_tail_with_a_warning() -> None:
    text = "a" * 100 + "\n" + "b" * 100  # 201 bytes: 51 tokens, 2 lines
    assert truncate_to_tokens(text, 10) == (
        "Warning: truncated output (original token count: 51)\n"
        "Total output lines: 2\n"
        "\n" + "a" * 20 + "…41 tokens truncated…" + "b" * 20  # 161 bytes cut
    )


def test_output_cut_never_splits_a_character() -> None:
    text = "é" * 50  # 100 bytes; 5 tokens keep 10 bytes each side (5 characters)
    cut = truncate_to_tokens(text, 5)
    assert cut.endswith("\n\n" + "é" * 5 + "…20 tokens truncated…" + "é" * 5)
    odd = truncate_to_tokens("é" * 50, 3)  # 6 bytes each side: 3 characters, none halved
    assert "\ufffd" not in odd and odd.endswith("ééé…22 tokens truncated…ééé")


def test_output_response_frames_exited_and_running_processes() -> None:
    exited = format_response("hi\n", 0.25, exit_code=0, session_id=None, max_tokens=100)
    assert re.fullmatch(
        r"Chunk ID: [0-9a-f]{6}\n"
        r"Wall time: 0\.2500 seconds\n"
        r"Process exited with code 0\n"
        r"Original token count: 1\n"
        r"Output:\nhi\n",
        exited,
    )
    running = format_response("x" * 80, 1.5, exit_code=None, session_id=4242, max_tokens=10)
    head, _, body = running.partition("Output:\n")
    assert head.splitlines()[2:] == [
        "Process running with session ID 4242",
        "Original token count: 20",
    ]
    assert body == truncate_to_tokens("x" * 80, 10)
