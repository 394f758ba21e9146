"""`codex exec --json` reports apply_patch edits as `file_change` items (real console script)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_codex_exec import jsonl, provider_flags, run_codex
from tests.support.model_server import ModelServer
from tests.support.sse import FunctionCallOut, apply_patch_call, message, shell_call, turn, usage

pytestmark = pytest.mark.e2e

PATCH = """*** Begin Patch
*** Update File: app.py
@@
-print("hi")
+print("hello")
*** Add File: notes.md
+# Notes
*** End Patch"""


def file_changes(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The completed `file_change` items of an exec JSONL stream."""
    return [
        line["item"]
        for line in lines
        if line["type"] == "item.completed" and line["item"]["type"] == "file_change"
    ]


@pytest.mark.parametrize("form", ["function", "shell_heredoc"])
def test_exec_file_change_reports_patch_as_item(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path, form: str
) -> None:
    (tmp_path / "app.py").write_text('print("hi")\n')
    call: FunctionCallOut = (
        apply_patch_call(PATCH, "patch_1")
        if form == "function"
        else shell_call(["bash", "-lc", f"apply_patch <<'EOF'\n{PATCH}\nEOF\n"], "patch_1")
    )
    model_server.add(turn(call), turn(message("Patched."), usage=usage(input=40, output=4)))

    done = run_codex(
        codex_bin,
        [
            "exec",
            "--skip-git-repo-check",
            "--json",
            "--full-auto",
            *provider_flags(model_server, "responses"),
            "say hello",
        ],
        tmp_path,
    )

    assert done.returncode == 0, done.stderr
    assert (tmp_path / "app.py").read_text() == 'print("hello")\n'
    assert (tmp_path / "notes.md").read_text() == "# Notes\n"
    lines = jsonl(done.stdout)
    changes = file_changes(lines)
    assert len(changes) == 1
    item = changes[0]
    assert item["status"] == "completed"
    assert sorted((Path(c["path"]).name, c["kind"]) for c in item["changes"]) == [
        ("app.py", "update"),
        ("notes.md", "add"),
    ]
    assert not [line for line in lines if line.get("item", {}).get("type") == "command_execution"]
    assert lines[-1]["type"] == "turn.completed"
    second = json.dumps(model_server.bodies[1])
    assert "patch_1" in second and "Success." in second


def test_exec_file_change_absent_when_patch_is_rejected(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    """A patch the model gets wrong is reported to the model, and no file_change is claimed."""
    broken = "*** Begin Patch\n*** Update File: missing.py\n@@\n-a\n+b\n*** End Patch"
    model_server.add(turn(apply_patch_call(broken, "patch_1")), turn(message("Sorry.")))

    done = run_codex(
        codex_bin,
        [
            "exec",
            "--skip-git-repo-check",
            "--json",
            "--full-auto",
            *provider_flags(model_server, "responses"),
            "edit",
        ],
        tmp_path,
    )

    assert done.returncode == 0, done.stderr
    lines = jsonl(done.stdout)
    assert file_changes(lines) == []
    assert lines[-1]["type"] == "turn.completed"
    outputs = [i for i in model_server.bodies[1]["input"] if i["type"] == "function_call_output"]
    assert outputs[0]["output"].startswith("apply_patch verification failed")
