"""Golden files: what each frontend emits for the recorded sessions stays byte for byte the same.

Every stream of `streams` (live scripted sessions and the replayed rollouts of
`tests/fixtures/rollouts_0169` and `tests/fixtures/rollouts`) is rendered through each frontend
of `render` and compared with `tests/fixtures/item_goldens/<stream>.<frontend>.jsonl`. A change
a client would see fails here; when it is on purpose, rewrite the goldens with
`CODEX_UPDATE_GOLDENS=1` and say why in the commit.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.items.render import FRONTENDS
from tests.items.streams import FIXTURES, load_stream, stream_names

GOLDENS = FIXTURES / "item_goldens"
UPDATE = os.environ.get("CODEX_UPDATE_GOLDENS") == "1"


def golden_path(stream: str, frontend: str) -> Path:
    return GOLDENS / f"{stream}.{frontend}.jsonl"


@pytest.mark.parametrize("frontend", sorted(FRONTENDS))
@pytest.mark.parametrize("stream", stream_names())
def test_item_goldens_frontend_output_unchanged(stream: str, frontend: str) -> None:
    rendered = FRONTENDS[frontend](load_stream(stream))
    path = golden_path(stream, frontend)
    if UPDATE:
        GOLDENS.mkdir(exist_ok=True)
        path.write_text(rendered, "utf-8")
    assert path.exists(), f"no golden file {path.name}; record it with CODEX_UPDATE_GOLDENS=1"
    assert rendered == path.read_text("utf-8")


def test_item_goldens_cover_every_stream_and_frontend() -> None:
    expected = {golden_path(s, f).name for s in stream_names() for f in FRONTENDS}
    assert {p.name for p in GOLDENS.glob("*.jsonl")} == expected
    assert len(stream_names()) >= 15  # 8 live sessions, 7 recorded rollouts
