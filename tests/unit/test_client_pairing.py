"""The scripted server's pairing check: every tool output answers exactly one earlier call."""

from __future__ import annotations

import pytest

from tests.support.pairing import assert_call_outputs_paired


def test_pairing_accepts_paired_responses_input() -> None:
    assert_call_outputs_paired(
        {
            "input": [
                {"type": "function_call", "call_id": "a", "name": "shell", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "a", "output": "ok"},
                {"type": "custom_tool_call", "call_id": "b", "name": "apply_patch", "input": ""},
                {"type": "custom_tool_call_output", "call_id": "b", "output": "ok"},
            ]
        }
    )


def test_pairing_names_an_orphan_output() -> None:
    body = {"input": [{"type": "function_call_output", "call_id": "ghost", "output": "x"}]}
    with pytest.raises(AssertionError, match="orphan.*'ghost'"):
        assert_call_outputs_paired(body)


def test_pairing_rejects_an_output_before_its_call() -> None:
    body = {
        "input": [
            {"type": "function_call_output", "call_id": "a", "output": "x"},
            {"type": "function_call", "call_id": "a", "name": "shell", "arguments": "{}"},
        ]
    }
    with pytest.raises(AssertionError, match="orphan"):
        assert_call_outputs_paired(body)


def test_pairing_rejects_a_call_left_without_output() -> None:
    body = {
        "input": [{"type": "function_call", "call_id": "a", "name": "shell", "arguments": "{}"}]
    }
    with pytest.raises(AssertionError, match="'a'.*has no output"):
        assert_call_outputs_paired(body)


def test_pairing_rejects_a_second_output_for_one_call() -> None:
    body = {
        "input": [
            {"type": "function_call", "call_id": "a", "name": "shell", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "a", "output": "x"},
            {"type": "function_call_output", "call_id": "a", "output": "y"},
        ]
    }
    with pytest.raises(AssertionError, match="second time"):
        assert_call_outputs_paired(body)


def test_pairing_checks_chat_tool_messages() -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "shell", "arguments": "{}"}}
    assert_call_outputs_paired(
        {
            "messages": [
                {"role": "assistant", "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "c1"},
            ]
        }
    )
    with pytest.raises(AssertionError, match="orphan.*'c9'"):
        assert_call_outputs_paired(
            {"messages": [{"role": "tool", "tool_call_id": "c9", "content": ""}]}
        )
