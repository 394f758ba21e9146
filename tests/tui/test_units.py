"""Unit tests of the TUI's pure parts: formatting, diffs, history, timer, batching, segments."""

from __future__ import annotations

import asyncio
import functools
import heapq
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from codex_core.items import notices as nt
from codex_core.items.client import ClientNotice
from codex_core.protocol import (
    AgentMessageDeltaEvent,
    ShutdownCompleteEvent,
    TaskStartedEvent,
    WarningEvent,
)
from codex_core.protocol.common import (
    AddChange,
    DeleteChange,
    TokenUsage,
    TokenUsageInfo,
    UpdateChange,
)
from codex_tui.app.coalesce import coalesce
from codex_tui.app.diffs import DiffLine, DiffStat, diff_stats, file_diff, parse_unified_diff
from codex_tui.app.event_pump import pump_notices
from codex_tui.app.formatting import (
    Excerpt,
    context_left_percent,
    excerpt,
    format_duration,
    format_elapsed,
    format_usage,
    reasoning_header,
    shorten_path,
    strip_reasoning_header,
    truncate_line,
)
from codex_tui.app.history import ComposerHistory, Fetch, Show
from codex_tui.app.markdown_split import (
    CLIPPED_NOTE,
    SEGMENT_CHARS,
    StreamSegments,
    open_fence,
    split_point,
)
from codex_tui.app.turn_timer import TurnTimer
from tests.tui.fake_core import FakeCore, frozen_clock


def test_excerpt_keeps_head_and_tail_of_long_output() -> None:
    text = "\n".join(f"line {i}" for i in range(20)) + "\n"
    assert excerpt(text) == Excerpt(["line 0", "line 1", "line 2"], 15, ["line 18", "line 19"])
    assert excerpt("a\nb\n") == Excerpt(["a", "b"], 0, [])
    assert excerpt("   \n") == Excerpt([], 0, [])


def test_truncate_line_cuts_very_long_lines_for_display() -> None:
    assert truncate_line("x" * 10, 20) == "x" * 10
    assert truncate_line("x" * 500, 100) == "x" * 100 + "… (+400 chars)"


def test_format_duration_and_elapsed() -> None:
    assert [format_duration(ms) for ms in (850, 4200, 65_000, 3_723_000)] == [
        "850ms",
        "4.2s",
        "1m 05s",
        "1h 02m 03s",
    ]
    assert format_elapsed(7.9) == "7s"
    assert format_elapsed(65.2) == "1m 05s"


def test_context_left_percent_uses_last_usage() -> None:
    info = TokenUsageInfo(
        total_token_usage=TokenUsage(total_tokens=900_000),
        last_token_usage=TokenUsage(total_tokens=50_000),
        model_context_window=200_000,
    )
    assert context_left_percent(info, None) == 80  # (W - used) / (W - 12,000), as Codex
    assert context_left_percent(TokenUsageInfo(), None) is None
    assert context_left_percent(TokenUsageInfo(), 100_000) == 100  # before the first turn
    small = TokenUsageInfo(last_token_usage=TokenUsage(total_tokens=5_000))
    assert context_left_percent(small, 100_000) == 100  # the baseline counts as free
    assert context_left_percent(TokenUsageInfo(), 10_000) == 0  # no room beyond the baseline


def test_format_usage_line() -> None:
    usage = TokenUsage(
        input_tokens=1200, cached_input_tokens=200, output_tokens=34, total_tokens=1234
    )
    assert format_usage(usage) == "Token usage: total=1,234 input=1,200 (+ 200 cached) output=34"


def test_reasoning_header_needs_closing_stars() -> None:
    assert reasoning_header("**Reading files**\n\nbody") == "Reading files"
    assert reasoning_header("**Reading fi") is None
    assert reasoning_header("plain") is None
    assert strip_reasoning_header("**Head**\n\nbody") == "body"


def test_shorten_path_replaces_home() -> None:
    assert shorten_path("/home/ann/project", "/home/ann") == "~/project"
    assert shorten_path("/home/anna/x", "/home/ann") == "/home/anna/x"


def test_parse_unified_diff_numbers_lines() -> None:
    lines = parse_unified_diff("@@ -3,2 +3,3 @@\n keep\n-old\n+new\n+more\n@@ -20 +21 @@\n-x\n+y\n")
    assert lines == [
        DiffLine("context", 3, "keep"),
        DiffLine("remove", 4, "old"),
        DiffLine("add", 4, "new"),
        DiffLine("add", 5, "more"),
        DiffLine("hunk", None, "⋮"),
        DiffLine("remove", 20, "x"),
        DiffLine("add", 21, "y"),
    ]


def test_file_diff_counts_adds_deletes_and_edits() -> None:
    added = file_diff("new.py", AddChange(content="a\nb\n"))
    assert (added.verb, added.added, added.removed) == ("Added", 2, 0)
    deleted = file_diff("old.py", DeleteChange(content="a\n"))
    assert (deleted.verb, deleted.added, deleted.removed) == ("Deleted", 0, 1)
    edited = file_diff("m.py", UpdateChange(unified_diff="@@ -1 +1 @@\n-a\n+b\n", move_path="n.py"))
    assert (edited.verb, edited.added, edited.removed, edited.move_path) == ("Edited", 1, 1, "n.py")


def test_diff_stats_of_git_diff() -> None:
    diff = (
        "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1,2 @@\n-x\n+y\n+z\n"
        "diff --git a/b.md b/b.md\nnew file mode 100644\n--- /dev/null\n+++ b/b.md\n@@ -0,0 +1 @@\n+hi\n"
    )
    assert diff_stats(diff) == [DiffStat("a.py", 2, 1), DiffStat("b.md", 1, 0)]


def test_history_walks_local_then_fetches_persistent() -> None:
    history = ComposerHistory()
    history.configure(log_id=3, count=2)
    history.record("mine")
    assert history.previous("draft") == Show("mine")
    assert history.previous("mine") == Fetch(1, 3)
    assert history.on_entry(1, 3, "older") == Show("older")
    assert history.previous("older") == Fetch(0, 3)
    assert history.on_entry(0, 99, "wrong log") is None
    assert history.on_entry(0, 3, "oldest") == Show("oldest")
    assert history.previous("oldest") is None
    assert history.next() == Show("older"), "cached entries need no second fetch"
    assert history.next() == Show("mine")
    assert history.next() == Show("draft")
    assert not history.browsing


def test_turn_timer_excludes_pauses() -> None:
    clock = frozen_clock()
    timer = TurnTimer(clock)
    timer.start()
    clock.advance(3)
    timer.pause()
    clock.advance(100)
    timer.resume()
    clock.advance(2)
    assert timer.stop() == 5
    assert not timer.running


def test_coalesce_merges_delta_runs_in_order() -> None:
    t = "tui"
    notices: list[ClientNotice] = [
        nt.AgentMessageDelta(t, "m", "a"),
        nt.AgentMessageDelta(t, "m", "b"),
        nt.CommandOutputDelta(t, "c", "stdout", "x"),
        nt.CommandOutputDelta(t, "c", "stderr", "y"),
        nt.CommandOutputDelta(t, "d", "stdout", "z"),
        nt.TurnStarted(t),
        nt.AgentMessageDelta(t, "m", "c\x1b]0;"),
        nt.AgentMessageDelta(t, "m", "title\x07"),
        nt.ReasoningDelta(t, "r", 0, "p"),
        nt.ReasoningDelta(t, "r", 1, "q"),
        nt.ReasoningDelta(t, "r", 1, "s"),
    ]
    assert coalesce(notices) == [
        nt.AgentMessageDelta(t, "m", "ab"),
        nt.CommandOutputDelta(t, "c", "stderr", "xy"),
        nt.CommandOutputDelta(t, "d", "stdout", "z"),
        nt.TurnStarted(t),
        nt.AgentMessageDelta(t, "m", "c␛]0;title␇"),  # printable once whole
        nt.ReasoningDelta(t, "r", 0, "p"),
        nt.ReasoningDelta(t, "r", 1, "qs"),
    ]


async def test_pump_notices_projects_batches_of_deltas_and_stops_at_shutdown() -> None:
    core = FakeCore()
    core.emit(TaskStartedEvent())
    core.emit(*[AgentMessageDeltaEvent(delta=str(i % 10)) for i in range(2500)])
    core.emit(WarningEvent(message="at start"), sub_id="0")
    core.emit(ShutdownCompleteEvent())
    batches: list[list[ClientNotice]] = []

    async def deliver(batch: list[ClientNotice]) -> None:
        batches.append(batch)

    await asyncio.wait_for(pump_notices(core, deliver, max_batch=1000), timeout=5)
    flat = [notice for batch in batches for notice in batch]
    streamed = "".join(x.delta for x in flat if isinstance(x, nt.AgentMessageDelta))
    assert streamed == "0123456789" * 250
    assert isinstance(flat[0], nt.TurnStarted) and isinstance(flat[-1], nt.SessionEnded)
    assert nt.TurnWarning("0", "at start") in flat  # the start's own turn (F2's warnings)
    assert sum(isinstance(x, nt.AgentMessageDelta) for x in flat) <= 6, "one delta per batch"
    assert len(batches) <= 6


def test_split_point_prefers_line_breaks_and_fences_carry_over() -> None:
    text = ("word " * 500 + "\n") * 4
    cut = split_point(text, 0)
    assert cut is not None and cut <= SEGMENT_CHARS and text[cut - 1] == "\n"
    assert split_point("short", 0) is None
    assert open_fence("intro\n```python\nx = 1\n", None) == "```python"
    assert open_fence("y = 2\n```\nafter\n", "```python") is None


def test_stream_segments_close_behind_the_stream_and_keep_fences_whole() -> None:
    code = "".join(f"    value_{i} = compute({i})\n" for i in range(300))
    text = "Intro paragraph.\n\n" + "word " * 700 + "\n\n```python\n" + code + "```\n\nDone.\n"
    segments = StreamSegments(limit=200_000)
    for end in range(0, len(text) + 1, 37):
        assert not segments.update(text[:end])
        closed = segments.sources[:-1]
        assert all(len(source) <= SEGMENT_CHARS + 20 for source in closed)
    segments.update(text)
    assert len(segments.sources) > 2
    # Every segment holding code opens and closes its own fence, so each one highlights.
    for source in segments.sources:
        if "value_" in source:
            assert source.lstrip().startswith("```python") or "\n```python\n" in source
            assert source.rstrip().endswith("```") or "```\n\nDone." in source
    assert "".join(segments.sources).count("value_") == 300


def test_stream_segments_restart_on_a_different_text_and_clip_long_answers() -> None:
    segments = StreamSegments(limit=9_000)
    segments.update("a" * 10 + " " + "b" * 5000 + "\n\n" + "c" * 3000)
    assert not segments.update("a" * 10 + " " + "b" * 5000 + "\n\n" + "c" * 3000 + " more")
    assert segments.update("something else entirely")
    assert segments.sources == ["something else entirely"]
    segments.update("x " * 6000)
    assert segments.sources[-1].endswith(CLIPPED_NOTE)
    assert sum(len(source) for source in segments.sources) < 9_000 + len(CLIPPED_NOTE) + 10


@given(
    paths=st.lists(st.text("abcAB/._-xé", min_size=1, max_size=12), max_size=60, unique=True),
    queries=st.lists(st.text("abAB/.x-é", min_size=1, max_size=4), min_size=1, max_size=4),
)
def test_file_index_search_ranks_like_rank_key(paths: list[str], queries: list[str]) -> None:
    from codex_tui.app.file_search import FileIndex
    from codex_tui.app.fuzzy import rank_key, subsequence_pattern

    index = FileIndex(Path("."))
    index._publish(paths)
    # Random queries, then the first one typed key by key (each extends the last: the
    # index filters its previous matches).
    for query in [*queries, *(queries[0][:n] for n in range(1, len(queries[0]) + 1))]:
        search = subsequence_pattern(query).search
        expected = heapq.nsmallest(
            5, [p for p in paths if search(p)], key=functools.partial(rank_key, query)
        )
        assert index.search(query, 5) == expected


def test_importing_tui_main_does_not_load_textual() -> None:
    code = "import sys, codex_tui.cli.tui; print('textual' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
