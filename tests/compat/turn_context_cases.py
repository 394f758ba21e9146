"""The `turn_context` cases seen side by side with 0.169, and recording its payloads.

`python -m tests.compat.turn_context_cases` runs `codex-rust exec` for each case against the
scripted model server and rewrites tests/fixtures/turn_context_0169.json (the working
directory as `CWD`, the extra writable root as `EXTRA`, turn ids as `ID`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

FIXTURE = Path(__file__).parent.parent / "fixtures" / "turn_context_0169.json"
EXTRA = "EXTRA"
CASES: dict[str, list[str]] = {
    "default": [],
    "read-only": ["-s", "read-only"],
    "workspace-write": ["-s", "workspace-write"],
    "danger-full-access": ["-s", "danger-full-access"],
    "workspace-write-roots": [
        "-s",
        "workspace-write",
        "--add-dir",
        EXTRA,
        "-c",
        "sandbox_workspace_write.network_access=true",
        "-c",
        "sandbox_workspace_write.exclude_slash_tmp=true",
        "-c",
        'model_reasoning_effort="high"',
    ],
    "granular": [
        "-s",
        "workspace-write",
        "-c",
        "approval_policy={granular={sandbox_approval=true,rules=false,mcp_elicitations=true}}",
    ],
}
"""Each case's flags (`EXTRA` stands for a directory made for the run)."""
NOT_WRITTEN = ("comp_hash", "multi_agent_version")
"""0.169's keys we do not write: values from its model catalogue."""


def flags_for(case: str, extra: Path) -> list[str]:
    """The case's flags with `EXTRA` made real."""
    return [str(extra) if flag == EXTRA else flag for flag in CASES[case]]


def normalized(payload: dict[str, Any], cwd: Path, extra: Path) -> dict[str, Any]:
    """`payload` with its ids, working directory and extra root replaced by placeholders."""
    text = json.dumps(payload).replace(str(extra), EXTRA).replace(str(cwd), "CWD")
    out: dict[str, Any] = json.loads(text)
    for key in ("turn_id", "root_turn_id"):
        if key in out:
            out[key] = "ID"
    return out


def turn_contexts(home: Path) -> list[dict[str, Any]]:
    """Every `turn_context` payload under `home/sessions`, file by file, in order."""
    found = []
    for path in sorted((home / "sessions").rglob("rollout-*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            record = json.loads(line)
            if record.get("type") == "turn_context":
                found.append(record["payload"])
    return found


def record() -> None:  # pragma: no cover - run by hand against codex-rust
    from tests.support.model_server import ModelServer
    from tests.support.sse import message, turn

    seen: dict[str, Any] = {}
    for case in CASES:
        base = Path(tempfile.mkdtemp(dir=Path.home() / ".cache"))
        home, cwd, extra = base / "home", base / "cwd", base / "extra"
        for folder in (home, cwd, extra):
            folder.mkdir()
        env = {**os.environ, "CODEX_HOME": str(home), "OPENAI_API_KEY": "sk-test"}
        with ModelServer() as server:
            server.add(turn(message("ok")))
            argv = ["codex-rust", "exec", "--skip-git-repo-check", "-c", 'model="gpt-5.5"']
            argv += [*flags_for(case, extra), *server.cli_flags(), "hi"]
            subprocess.run(argv, cwd=cwd, env=env, capture_output=True, timeout=60, check=True)
        [payload] = turn_contexts(home)
        seen[case] = normalized(payload, cwd, extra)
        shutil.rmtree(base)
    FIXTURE.write_text(json.dumps(seen, indent=1) + "\n")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(record())
