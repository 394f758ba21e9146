"""Pinned writes: each hunk writes where its path led when the patch was checked, or nowhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.apply_patch import ApplyPatchError, parse_patch, pin_patch
from codex_core.apply_patch.apply import apply_hunks
from codex_core.apply_patch.pins import HunkPins, decode_pins, encode_pins


def patch_of(*sections: str) -> str:
    return "*** Begin Patch\n" + "".join(sections) + "*** End Patch"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "outside").mkdir()
    return root


def test_apply_patch_pins_directory_swapped_for_a_link_after_pinning_is_refused(ws: Path) -> None:
    (ws / "d").mkdir()
    outside = ws.parent / "outside"
    patch = parse_patch(patch_of("*** Add File: d/x.txt\n+x\n"))
    pins = pin_patch(patch, ws)
    (ws / "d").rmdir()
    (ws / "d").symlink_to(outside)

    with pytest.raises(ApplyPatchError) as caught:
        apply_hunks(patch, ws, pins)

    assert list(outside.iterdir()) == []
    assert str(caught.value) == (
        f"Failed to write d/x.txt: {ws / 'd'} became a symbolic link after the patch was "
        "checked; apply_patch does not follow it, so nothing was written there"
    )


def test_apply_patch_pins_file_swapped_for_a_link_after_pinning_is_refused(ws: Path) -> None:
    (ws / "a.txt").write_text("old\n")
    secret = ws.parent / "outside" / "secret.txt"
    secret.write_text("old\n")
    patch = parse_patch(patch_of("*** Add File: a.txt\n+new\n"))
    pins = pin_patch(patch, ws)
    (ws / "a.txt").unlink()
    (ws / "a.txt").symlink_to(secret)

    with pytest.raises(ApplyPatchError, match="a.txt became a symbolic link"):
        apply_hunks(patch, ws, pins)

    assert secret.read_text() == "old\n"


def test_apply_patch_pins_link_present_when_checked_is_written_through(ws: Path) -> None:
    (ws / "AGENTS.md").write_text("one\n")
    (ws / "CLAUDE.md").symlink_to("AGENTS.md")
    patch = parse_patch(patch_of("*** Update File: CLAUDE.md\n@@\n-one\n+two\n"))

    apply_hunks(patch, ws, pin_patch(patch, ws))

    assert (ws / "CLAUDE.md").is_symlink()
    assert (ws / "AGENTS.md").read_text() == "two\n"


def test_apply_patch_pins_link_removed_then_added_becomes_a_plain_file(ws: Path) -> None:
    (ws / "target.txt").write_text("kept\n")
    (ws / "link.txt").symlink_to("target.txt")
    patch = parse_patch(patch_of("*** Delete File: link.txt\n", "*** Add File: link.txt\n+new\n"))

    apply_hunks(patch, ws, pin_patch(patch, ws))

    assert not (ws / "link.txt").is_symlink()
    assert (ws / "link.txt").read_text() == "new\n"
    assert (ws / "target.txt").read_text() == "kept\n"


def test_apply_patch_pins_delete_of_a_link_removes_the_link_only(ws: Path) -> None:
    (ws / "target.txt").write_text("kept\n")
    (ws / "link.txt").symlink_to("target.txt")
    patch = parse_patch(patch_of("*** Delete File: link.txt\n"))

    apply_hunks(patch, ws, pin_patch(patch, ws))

    assert not (ws / "link.txt").exists() and not (ws / "link.txt").is_symlink()
    assert (ws / "target.txt").read_text() == "kept\n"


def test_apply_patch_pins_move_keeps_the_mode_and_removes_the_source(ws: Path) -> None:
    (ws / "run.sh").write_text("echo a\n")
    (ws / "run.sh").chmod(0o751)
    patch = parse_patch(
        patch_of("*** Update File: run.sh\n*** Move to: bin/run.sh\n@@\n-echo a\n+echo b\n")
    )

    apply_hunks(patch, ws, pin_patch(patch, ws))

    assert not (ws / "run.sh").exists()
    moved = ws / "bin" / "run.sh"
    assert moved.read_text() == "echo b\n"
    assert moved.stat().st_mode & 0o777 == 0o751


def test_apply_patch_pins_round_trip_through_one_line(ws: Path) -> None:
    patch = parse_patch(patch_of("*** Add File: a\n+a\n", "*** Delete File: b\n"))
    pins = pin_patch(patch, ws)

    line = encode_pins(pins)

    assert "\n" not in line
    assert decode_pins(line, 2) == pins
    assert pins == [HunkPins(str(ws / "a"), None), HunkPins(None, str(ws / "b"))]


@pytest.mark.parametrize("line", ["", "{}", "[[1, 2]]", '[["rel", null]]', "[[null, null], []]"])
def test_apply_patch_pins_malformed_line_is_refused(line: str) -> None:
    with pytest.raises(ApplyPatchError, match="must pin every hunk"):
        decode_pins(line, 1)
