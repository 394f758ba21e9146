"""Applying patches to files: semantics of every hunk kind, fuzz, partial failure, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.apply_patch import (
    ApplyPatchError,
    ApplyResult,
    FileChangeInfo,
    apply_patch,
    compute_changes,
    parse_patch,
)


def _patch(body: str) -> str:
    return f"*** Begin Patch\n{body}\n*** End Patch"


def _error(text: str, cwd: Path) -> str:
    with pytest.raises(ApplyPatchError) as caught:
        apply_patch(text, cwd)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_apply_patch_add_update_delete_and_summary(tmp_path: Path) -> None:
    (tmp_path / "mod.txt").write_text("a\nb\nc\n")
    (tmp_path / "gone.txt").write_text("bye\n")
    result = apply_patch(
        _patch(
            "*** Add File: new/dir/file.txt\n+hello\n"
            "*** Update File: mod.txt\n@@\n a\n-b\n+B\n"
            "*** Delete File: gone.txt"
        ),
        tmp_path,
    )
    assert result == ApplyResult(
        added=[Path("new/dir/file.txt")], modified=[Path("mod.txt")], deleted=[Path("gone.txt")]
    )
    assert result.summary() == (
        "Success. Updated the following files:\nA new/dir/file.txt\nM mod.txt\nD gone.txt\n"
    )
    assert (tmp_path / "new/dir/file.txt").read_text() == "hello\n"
    assert (tmp_path / "mod.txt").read_text() == "a\nB\nc\n"
    assert not (tmp_path / "gone.txt").exists()


def test_apply_patch_context_header_moves_cursor(tmp_path: Path) -> None:
    target = tmp_path / "f.py"
    target.write_text("def a():\n    return 1\n\ndef b():\n    return 1\n")
    apply_patch(
        _patch("*** Update File: f.py\n@@ def b():\n-    return 1\n+    return 2"), tmp_path
    )
    assert target.read_text() == "def a():\n    return 1\n\ndef b():\n    return 2\n"


def test_apply_patch_chunks_apply_in_file_order(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("x\nx\nx\n")
    apply_patch(_patch("*** Update File: f.txt\n@@\n-x\n+1\n@@\n-x\n+2"), tmp_path)
    assert target.read_text() == "1\n2\nx\n"


def test_apply_patch_end_of_file_anchors_at_the_end(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("end\nmiddle\nend\n")
    apply_patch(_patch("*** Update File: f.txt\n@@\n-end\n+END\n*** End of File"), tmp_path)
    assert target.read_text() == "end\nmiddle\nEND\n"


def test_apply_patch_pure_addition_after_context_line(tmp_path: Path) -> None:
    target = tmp_path / "f.py"
    target.write_text("class A:\n    pass\n")
    apply_patch(_patch("*** Update File: f.py\n@@ class A:\n+    x = 1"), tmp_path)
    assert target.read_text() == "class A:\n    x = 1\n    pass\n"


def test_apply_patch_pure_addition_without_context_appends(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("a")
    apply_patch(_patch("*** Update File: f.txt\n@@\n+b"), tmp_path)
    assert target.read_text() == "a\nb\n"


@pytest.mark.parametrize(
    ("original", "old_line", "expected"),
    [
        ("value = 1   \n", "value = 1", "value = 2\n"),
        ("    value = 1\n", "value = 1", "value = 2\n"),
        ("msg = \u201cquote\u201d \u2013 ok\n", 'msg = "quote" - ok', "value = 2\n"),
    ],
    ids=["trailing-whitespace", "surrounding-whitespace", "unicode-punctuation"],
)
def test_apply_patch_fuzzy_levels(
    tmp_path: Path, original: str, old_line: str, expected: str
) -> None:
    target = tmp_path / "f.txt"
    target.write_text(original, encoding="utf-8")
    apply_patch(_patch(f"*** Update File: f.txt\n@@\n-{old_line}\n+value = 2"), tmp_path)
    assert target.read_text(encoding="utf-8") == expected


def test_apply_patch_keeps_crlf_line_endings(tmp_path: Path) -> None:
    target = tmp_path / "win.txt"
    target.write_bytes(b"one\r\ntwo\r\n")
    apply_patch(_patch("*** Update File: win.txt\n@@\n-two\n+deux"), tmp_path)
    assert target.read_bytes() == b"one\r\ndeux\r\n"


def test_apply_patch_trailing_blank_line_in_old_lines(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("a\nb\n")
    apply_patch(_patch("*** Update File: f.txt\n@@\n-b\n-\n+c\n+"), tmp_path)
    assert target.read_text() == "a\nc\n"


def test_apply_patch_move_keeps_mode_and_removes_source(tmp_path: Path) -> None:
    source = tmp_path / "run.sh"
    source.write_text("echo a\n")
    source.chmod(0o755)
    result = apply_patch(
        _patch("*** Update File: run.sh\n*** Move to: bin/run.sh\n@@\n-echo a\n+echo b"), tmp_path
    )
    assert result.modified == [Path("bin/run.sh")]
    assert not source.exists()
    moved = tmp_path / "bin/run.sh"
    assert moved.read_text() == "echo b\n"
    assert moved.stat().st_mode & 0o777 == 0o755


def test_apply_patch_move_onto_itself_keeps_the_file(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x\n")
    apply_patch(_patch("*** Update File: a.txt\n*** Move to: ./a.txt\n@@\n-x\n+y"), tmp_path)
    assert (tmp_path / "a.txt").read_text() == "y\n"


def test_apply_patch_failure_keeps_earlier_hunks(tmp_path: Path) -> None:
    message = _error(
        _patch("*** Add File: created.txt\n+hello\n*** Update File: missing.txt\n@@\n-old\n+new"),
        tmp_path,
    )
    assert message == "Failed to read missing.txt to update it: the file does not exist"
    assert (tmp_path / "created.txt").read_text() == "hello\n"


def test_apply_patch_parse_error_writes_nothing(tmp_path: Path) -> None:
    _error(_patch("*** Add File: a.txt\n+x\n*** Bogus"), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_apply_patch_error_for_missing_lines_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "m.txt").write_text("alpha\nbeta\ngamma\n")
    message = _error(_patch("*** Update File: m.txt\n@@\n alpha\n-beta\n-delta\n+x"), tmp_path)
    assert message == (
        "Failed to find expected lines in m.txt for the change at patch line 3: line 3 of 3, "
        "'delta', does not follow the 2 line(s) before it in the file; re-read the file and "
        "base the patch on its current content"
    )
    assert (tmp_path / "m.txt").read_text() == "alpha\nbeta\ngamma\n"


def test_apply_patch_error_for_missing_context(tmp_path: Path) -> None:
    (tmp_path / "m.txt").write_text("alpha\n")
    message = _error(_patch("*** Update File: m.txt\n@@ def nowhere():\n-alpha\n+b"), tmp_path)
    assert message.startswith(
        "Failed to find context 'def nowhere():' in m.txt (the '@@' line at patch line 3)"
    )


def test_apply_patch_error_for_lines_after_context(tmp_path: Path) -> None:
    (tmp_path / "m.txt").write_text("x = 1\ndef f():\n    pass\n")
    message = _error(_patch("*** Update File: m.txt\n@@ def f():\n-x = 1\n+x = 2"), tmp_path)
    assert "line 'x = 1' does not occur after the '@@ def f():' line" in message


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("*** Delete File: nope.txt", "Failed to delete nope.txt: the file does not exist"),
        (
            "*** Delete File: dir",
            "Failed to delete dir: it is a directory, and apply_patch deletes files only",
        ),
        ("*** Update File: dir\n@@\n-x", "Failed to read dir to update it: it is a directory"),
        ("*** Add File: dir\n+x", "Failed to write dir: it is a directory"),
        (
            "*** Update File: bin.dat\n@@\n-x",
            "Failed to read bin.dat to update it: it is not UTF-8 text, and apply_patch edits "
            "text files only",
        ),
    ],
    ids=["delete-missing", "delete-directory", "update-directory", "add-over-directory", "binary"],
)
def test_apply_patch_file_errors(tmp_path: Path, body: str, message: str) -> None:
    (tmp_path / "dir").mkdir()
    (tmp_path / "bin.dat").write_bytes(b"\xff\xfe\x00")
    assert _error(_patch(body), tmp_path) == message


def test_apply_patch_empty_patch_is_an_error(tmp_path: Path) -> None:
    assert _error(_patch("").replace("\n\n", "\n"), tmp_path).startswith("No files were modified")


def test_apply_patch_absolute_path(tmp_path: Path) -> None:
    target = tmp_path / "abs.txt"
    apply_patch(_patch(f"*** Add File: {target}\n+x"), tmp_path / "elsewhere")
    assert target.read_text() == "x\n"


def test_compute_changes_describes_without_writing(tmp_path: Path) -> None:
    (tmp_path / "u.txt").write_text("one\ntwo\nthree\n")
    (tmp_path / "d.txt").write_text("old\n")
    patch = parse_patch(
        _patch(
            "*** Add File: a.txt\n+new\n*** Delete File: d.txt\n"
            "*** Update File: u.txt\n*** Move to: v.txt\n@@\n-two\n+2"
        )
    )
    changes = compute_changes(patch, tmp_path)
    assert changes == [
        FileChangeInfo(path=tmp_path / "a.txt", kind="add", content="new\n"),
        FileChangeInfo(path=tmp_path / "d.txt", kind="delete", content="old\n"),
        FileChangeInfo(
            path=tmp_path / "u.txt",
            kind="update",
            unified_diff="@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n",
            move_path=tmp_path / "v.txt",
            new_content="one\n2\nthree\n",
        ),
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.txt", "u.txt"]


def test_compute_changes_sees_earlier_hunks(tmp_path: Path) -> None:
    patch = parse_patch(_patch("*** Add File: a.txt\n+one\n*** Update File: a.txt\n@@\n-one\n+two"))
    changes = compute_changes(patch, tmp_path)
    assert changes[1].new_content == "two\n"
    with pytest.raises(ApplyPatchError, match="an earlier hunk of this patch deletes it"):
        compute_changes(
            parse_patch(
                _patch("*** Add File: b\n+x\n*** Delete File: b\n*** Update File: b\n@@\n-x")
            ),
            tmp_path,
        )


def test_compute_changes_errors_like_apply(tmp_path: Path) -> None:
    with pytest.raises(ApplyPatchError, match="Failed to delete missing.txt"):
        compute_changes(parse_patch(_patch("*** Delete File: missing.txt")), tmp_path)
    with pytest.raises(ApplyPatchError, match="No files were modified"):
        compute_changes(parse_patch("*** Begin Patch\n*** End Patch"), tmp_path)


def test_compute_changes_diff_marks_missing_final_newline(tmp_path: Path) -> None:
    (tmp_path / "n.txt").write_text("a\nb")
    (change,) = compute_changes(parse_patch(_patch("*** Update File: n.txt\n@@\n-b\n+c")), tmp_path)
    assert change.unified_diff == ("@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n")
