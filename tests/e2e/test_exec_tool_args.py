"""Malformed tool arguments through `codex exec`: one answer to the model, no traceback."""

from __future__ import annotations

import logging
import os
import subprocess
from pathlib import Path

import pytest

from codex_core.frontend.logfile import log_with_tracebacks_in_file
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn

pytestmark = pytest.mark.e2e

BAD_NUMBERS = [
    '{"cmd": "echo hi", "yield_time_ms": NaN}',
    '{"cmd": "echo hi", "yield_time_ms": Infinity}',
    '{"cmd": "echo hi", "max_output_tokens": -Infinity}',
    '{"cmd": "echo hi", "yield_time_ms": 1e400}',
    '{"cmd": "echo hi", "max_output_tokens": 1e300}',
    '{"cmd": "echo hi", "yield_time_ms": 123456789012345678901234567890}',
]


def test_exec_command_non_finite_or_huge_numbers_answer_the_model(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, codex_home: Path
) -> None:
    calls = [function_call("exec_command", args, f"call_{i}") for i, args in enumerate(BAD_NUMBERS)]
    model_server.add(turn(*calls), turn(message("gave up")))
    done = subprocess.run(
        [str(codex_bin), "exec", "--skip-git-repo-check", *model_server.cli_flags(), "go"],
        cwd=tmp_path,
        env={**os.environ, "OPENAI_API_KEY": "sk-test", "CODEX_HOME": str(codex_home)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    outputs = {
        item["call_id"]: item["output"]
        for item in model_server.bodies[-1]["input"]
        if item.get("type") == "function_call_output"
    }
    assert sorted(outputs) == sorted(f"call_{i}" for i in range(len(BAD_NUMBERS)))
    for output in outputs.values():
        assert str(output).startswith("failed to parse function arguments"), output
    model_server.check_pairing()


def test_kernel_boundary_traceback_goes_to_the_log_file_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    try:
        log_with_tracebacks_in_file(tmp_path, "codex-exec.log")
        try:
            raise OverflowError("cannot convert float infinity to integer")
        except OverflowError:
            logging.getLogger("codex_core.kernel").exception("tool exec_command (call c1) raised")
        for handler in root.handlers:
            handler.flush()
    finally:
        for handler in root.handlers[:]:
            if handler not in saved[0]:
                root.removeHandler(handler)
                handler.close()
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "ERROR codex_core.kernel: tool exec_command (call c1) raised (OverflowError: cannot "
        "convert float infinity to integer; traceback in the log file)"
    ]
    logged = (tmp_path / "log" / "codex-exec.log").read_text()
    assert "Traceback (most recent call last)" in logged and "OverflowError" in logged
