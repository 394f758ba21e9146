"""Images steered into a running turn go at the turn's model's `detail`, as its first ones."""

from __future__ import annotations

import base64
from pathlib import Path

from codex_core.protocol import LocalImageInput, TextInput
from codex_core.session.steer import SteeredInput

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def test_steered_images_take_the_turn_model_detail(tmp_path: Path) -> None:
    (tmp_path / "p.png").write_bytes(PNG)
    steered = SteeredInput()
    steered.image_detail = "original"  # what the turn set for gpt-5.5
    steered.start()
    assert steered.push("s1", [LocalImageInput(path="p.png"), TextInput(text="this one")])
    [message] = steered.take(tmp_path, lambda _msg: None)
    dumped = message.model_dump()
    assert [p.get("detail") for p in dumped["content"] if p["type"] == "input_image"] == [
        "original"
    ]
