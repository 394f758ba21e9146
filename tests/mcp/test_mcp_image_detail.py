"""Images go to the model at the `detail` codex-rust 0.169 picks per model (issue 26).

0.169's catalogue marks some models `supports_image_detail_original` (gpt-5.5 among them):
an attached image, an MCP tool's image and a viewed image all go at "original" to those,
at "high" to every other model. Recorded in `tests/fixtures/image_detail_0169/`.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.mcp.conftest import namespace_call, stdio_entry, write_config
from tests.support.model_server import ModelServer
from tests.support.sse import function_call, message, turn

pytestmark = pytest.mark.e2e

RECORDED = json.loads(
    (
        Path(__file__).parent.parent / "fixtures" / "image_detail_0169" / "detail_by_model.json"
    ).read_text()
)
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


@pytest.mark.parametrize("model", ["gpt-5.5", "gpt-5.1-codex"])
def test_image_detail_per_model_as_0169(
    model: str, codex_bin: Path, model_server: ModelServer, codex_home: Path, tmp_path: Path
) -> None:
    write_config(codex_home, stdio_entry("probe"))
    (tmp_path / "p.png").write_bytes(PNG)
    model_server.add(
        namespace_call("mcp__probe", "picture", {}, "c1"),
        turn(function_call("view_image", {"path": str(tmp_path / "p.png")}, "c2")),
        turn(message("seen")),
    )
    flags = [*model_server.cli_flags(), "-c", f'model="{model}"']
    done = subprocess.run(
        [str(codex_bin), "exec", "--skip-git-repo-check", *flags, "look", "-i", "p.png"],
        cwd=tmp_path,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert done.returncode == 0, done.stderr
    details: list[list[str]] = []
    for item in model_server.bodies[-1]["input"]:
        if item.get("type") == "message":
            parts = item["content"]
            details += [["msg", p["detail"]] for p in parts if p["type"] == "input_image"]
        elif item.get("type") == "function_call_output" and isinstance(item["output"], list):
            parts = item["output"]
            details += [[item["call_id"], p["detail"]] for p in parts if p["type"] == "input_image"]
    assert details == RECORDED[model]
