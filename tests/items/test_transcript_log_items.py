"""The Ctrl+T transcript log renders the projection: a patch that was asked about shows once
allowed (not when refused), a replayed patch shows the changes its end names."""

from __future__ import annotations

from codex_core import protocol as ev
from codex_tui.app.transcript_log import TranscriptLog
from tests.tui.fake_core import NoticeFeed

CHANGES: dict[str, ev.FileChange] = {"/w/a.txt": ev.AddChange(content="x\n")}


def logged(msgs: list[ev.EventMsg]) -> list[str]:
    log = TranscriptLog()
    feed = NoticeFeed()
    for msg in msgs:
        for notice in feed.project([ev.Event(id="1", msg=msg)]):
            log.record(notice)
    return [line.plain for line in log.lines]


def test_transcript_log_asked_patch_shows_once_allowed() -> None:
    lines = logged(
        [
            ev.TaskStartedEvent(),
            ev.ApplyPatchApprovalRequestEvent(call_id="p", changes=CHANGES),
            ev.ApprovalDecisionEvent(call_id="p", kind="patch", decision="approved"),
            ev.PatchApplyBeginEvent(call_id="p", auto_approved=False, changes=CHANGES),
            ev.PatchApplyEndEvent(call_id="p", success=True),
            ev.ApplyPatchApprovalRequestEvent(call_id="q", changes=CHANGES),
            ev.ApprovalDecisionEvent(call_id="q", kind="patch", decision="denied"),
            ev.TurnAbortedEvent(),
        ]
    )
    assert lines == ["+ Added /w/a.txt", "  +x", "", "■ Interrupted"]


def test_transcript_log_replayed_patch_end_shows_its_changes() -> None:
    lines = logged([ev.PatchApplyEndEvent(call_id="p", success=True, changes=CHANGES)])
    assert lines == ["+ Added /w/a.txt", "  +x"]
