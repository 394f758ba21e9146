"""Snapshot of an MCP server's elicitation form over a running turn."""

from __future__ import annotations

from tests.tui.test_pilot_elicitation import elicitation
from tests.tui.test_snapshots import SIZE, Compare, app_with, feeding, turn_start


def test_snapshot_elicitation_form(snap_compare: Compare) -> None:
    app, boot = app_with()
    msgs = [*turn_start("Sign me up for the newsletter"), elicitation()]
    assert snap_compare(app, terminal_size=SIZE, run_before=feeding(boot, *msgs))
