"""`codex exec -i` labels each image with its path as typed, as Codex 0.169 does.

Observed with codex-rust 0.169 run in /tmp/rwl with `-i pic.png -i ./sub/../sub/p2.png
-i /tmp/rwl/pic.png`: the labels read `<image name=[Image #1] path="pic.png">`,
`… path="./sub/../sub/p2.png">` and `… path="/tmp/rwl/pic.png">`.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.context.test_tools_and_inputs import png
from tests.support.model_server import ModelServer
from tests.support.sse import message, turn


def labels(server: ModelServer) -> list[str]:
    content = server.bodies[0]["input"][-1]["content"]
    return [p["text"] for p in content if p["type"] == "input_text" and "<image" in p["text"]]


def run(codex_bin: Path, server: ModelServer, cwd: Path, *flags: str) -> None:
    # `-i` takes every value after it (as in Codex 0.169), so the prompt follows `--`.
    argv = [str(codex_bin), "exec", "--skip-git-repo-check", *server.cli_flags(), *flags]
    argv += ["--", "look"]
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )
    assert done.returncode == 0, done.stderr


def test_exec_image_labels_keep_the_typed_path(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "pic.png").write_bytes(png())
    (tmp_path / "sub" / "p2.png").write_bytes(png())
    model_server.add(turn(message("seen")))
    absolute = str(tmp_path / "pic.png")
    run(
        codex_bin,
        model_server,
        tmp_path,
        "-i",
        "pic.png",
        "-i",
        "./sub/../sub/p2.png",
        "-i",
        absolute,
    )
    assert labels(model_server) == [
        '<image name=[Image #1] path="pic.png">',
        '<image name=[Image #2] path="./sub/../sub/p2.png">',
        f'<image name=[Image #3] path="{absolute}">',
    ]


def test_exec_image_typed_elsewhere_than_cd_is_made_absolute(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    (tmp_path / "work").mkdir()
    (tmp_path / "pic.png").write_bytes(png())
    model_server.add(turn(message("seen")))
    run(codex_bin, model_server, tmp_path, "--cd", str(tmp_path / "work"), "-i", "pic.png")
    assert labels(model_server) == [f'<image name=[Image #1] path="{tmp_path / "pic.png"}">']


def test_exec_image_flag_takes_several_values(
    codex_bin: Path, model_server: ModelServer, tmp_path: Path
) -> None:
    # Codex 0.169's `-i <FILE>...`: `-i a.png b.png -- look` attaches both.
    (tmp_path / "a.png").write_bytes(png())
    (tmp_path / "b.png").write_bytes(png())
    model_server.add(turn(message("seen")))
    run(codex_bin, model_server, tmp_path, "-i", "a.png", "b.png")
    assert labels(model_server) == [
        '<image name=[Image #1] path="a.png">',
        '<image name=[Image #2] path="b.png">',
    ]
    assert model_server.bodies[0]["input"][-1]["content"][-1] == {
        "type": "input_text",
        "text": "look",
    }
