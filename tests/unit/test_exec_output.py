"""Unit tests for output capping and the head/tail digest sent to the model."""

from __future__ import annotations

from codex_core.exec import ExecResult, format_output_for_model
from codex_core.exec.output import CappedText


def result(output: str) -> ExecResult:
    return ExecResult(0, output, "", output, 5, False, False)


def test_exec_output_short_output_is_passed_through_unchanged() -> None:
    assert format_output_for_model(result("a\nb\n")) == "a\nb\n"


def test_exec_output_many_lines_keep_head_and_tail_with_notice() -> None:
    text = "".join(f"line {i}\n" for i in range(1000))
    out = format_output_for_model(result(text), max_lines=10)
    assert out.splitlines() == [
        "Total output lines: 1000",
        "",
        *[f"line {i}" for i in range(5)],
        "[... 990 lines omitted ...]",
        *[f"line {i}" for i in range(995, 1000)],
    ]


def test_exec_output_byte_budget_applies_before_line_budget() -> None:
    text = "".join(f"{i:04d}" + "x" * 95 + "\n" for i in range(200))  # 100 bytes a line
    out = format_output_for_model(result(text), max_bytes=1000, max_lines=256)
    assert "[... 190 lines omitted ...]" in out
    assert out.count("x" * 95) == 10
    assert "0000" in out and "0199" in out


def test_exec_output_one_huge_line_is_clipped_on_utf8_boundaries() -> None:
    text = "é" * 50_000
    out = format_output_for_model(result(text), max_bytes=1000)
    assert len(out.encode()) < 1100
    assert "\ufffd" not in out and "é" in out


def test_exec_output_capped_text_keeps_ends_and_counts_dropped() -> None:
    buf = CappedText(limit=10)
    for chunk in ["abc", "defgh", "ijklmnop", "qrst"]:
        buf.append(chunk)
    assert buf.text() == "abcde\n[... 10 characters omitted ...]\npqrst"
    small = CappedText(limit=10)
    small.append("hello")
    assert small.text() == "hello"
