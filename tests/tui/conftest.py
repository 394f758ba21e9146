"""TUI test fixtures: snapshots in the top-level `snapshots/` directory, no cursor blink."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytest_textual_snapshot import SVGImageExtension
from syrupy.assertion import SnapshotAssertion
from textual.widgets import Input, TextArea

SNAPSHOT_DIR = Path(__file__).resolve().parents[2] / "snapshots"


class TopLevelSVGExtension(SVGImageExtension):  # type: ignore[misc]
    """SVG snapshots stored in `snapshots/<test module>/` at the top of the repository."""

    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        return str(SNAPSHOT_DIR / test_location.basename)


class TopLevelSnapshotAssertion(SnapshotAssertion):
    """Routes pytest-textual-snapshot's SVG extension to `snapshots/`."""

    def use_extension(self, extension_class: Any = None) -> SnapshotAssertion:
        if extension_class is SVGImageExtension:
            extension_class = TopLevelSVGExtension
        return super().use_extension(extension_class)


@pytest.fixture
def snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """The syrupy fixture, with SVGs going to the top-level `snapshots/` directory."""
    return TopLevelSnapshotAssertion(
        update_snapshots=snapshot.update_snapshots,
        extension_class=snapshot.extension_class,
        test_location=snapshot.test_location,
        session=snapshot.session,
    )


@pytest.fixture(autouse=True)
def no_cursor_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cursors stay solid so screenshots never catch them mid-blink."""
    for widget in (TextArea, Input):
        monkeypatch.setattr(widget.__dict__["cursor_blink"], "_default", False)
