"""The resume picker lists the sessions 0.169's picker lists: interactive ones (`cli`,
`vscode`, or no source), not `codex exec`'s, an MCP client's, a subagent's or an unknown
kind (tests/fixtures/resume_picker_sources_0169.json, seen side by side with codex-rust)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from codex_core.rollout import list_sessions
from codex_core.rollout.listing import INTERACTIVE_SOURCES
from codex_tui.app.real_boot import RolloutSessions
from codex_tui.cli.picker_frame import first_page
from tests.bench.resume_picker import write_sessions

OBSERVED = json.loads(
    (
        Path(__file__).resolve().parents[1] / "fixtures" / "resume_picker_sources_0169.json"
    ).read_text()
)


def _label(source: Any) -> str:
    return "none" if source is None else json.dumps(source) if isinstance(source, dict) else source


def _home(tmp_path: Path) -> tuple[Path, Path]:
    """One session per observed source; the first message names the source."""
    home, project = tmp_path / "home", (tmp_path / "project")
    project.mkdir()
    sources = OBSERVED["listed"] + OBSERVED["hidden"]
    write_sessions(home, project.resolve(), len(sources), step=3600)
    paths = sorted(home.rglob("rollout-*.jsonl"), key=lambda p: -p.stat().st_mtime)
    for path, source in zip(paths, sources, strict=True):
        stamp = path.stat().st_mtime
        lines = path.read_text().splitlines(keepends=True)
        first = json.loads(lines[0])
        if source is None:
            del first["payload"]["source"]
        else:
            first["payload"]["source"] = source
        lines[0] = json.dumps(first, separators=(",", ":")) + "\n"
        body = "".join(lines).replace("bench row", f"src {_label(source)} row")
        path.write_text(body)
        os.utime(path, (stamp, stamp))
    return home, project.resolve()


def _listed(previews: list[str]) -> set[str]:
    return {text.split()[1] for text in previews}


def test_the_picker_lists_the_sources_0169_lists(tmp_path: Path) -> None:
    home, project = _home(tmp_path)
    expected = {_label(source) for source in OBSERVED["listed"]}
    everything = list_sessions(home, cwd=str(project))
    assert len(everything.items) == len(OBSERVED["listed"]) + len(OBSERVED["hidden"])
    for _ in range(2):  # the second listing reads the heads from the catalog
        page = list_sessions(home, cwd=str(project), sources=INTERACTIVE_SOURCES)
        assert _listed([item.preview for item in page.items]) == expected
    picker = RolloutSessions(home, project).list_page(None, show_all=False)
    assert _listed([item.preview for item in picker.items]) == expected
    frame = first_page(home, project, show_all=True)
    assert frame is not None
    assert _listed([row[3] for row in frame.rows]) == expected
