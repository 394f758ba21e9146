"""Parsing the apply_patch format: strict grammar, lenient forms, and error messages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codex_core.apply_patch import (
    AddFile,
    DeleteFile,
    Patch,
    PatchParseError,
    UpdateChunk,
    UpdateFile,
    parse_patch,
)

FULL_PATCH = """*** Begin Patch
*** Add File: path/add.py
+abc
+def
*** Delete File: path/delete.py
*** Update File: path/update.py
*** Move to: path/update2.py
@@ def f():
-    pass
+    return 123
*** End Patch"""


def test_parse_patch_reads_every_hunk_kind() -> None:
    patch = parse_patch(FULL_PATCH)
    assert patch == Patch(
        hunks=(
            AddFile(path="path/add.py", content="abc\ndef\n"),
            DeleteFile(path="path/delete.py"),
            UpdateFile(
                path="path/update.py",
                move_path="path/update2.py",
                chunks=(
                    UpdateChunk(
                        context="def f():",
                        old_lines=("    pass",),
                        new_lines=("    return 123",),
                        patch_line=8,
                    ),
                ),
            ),
        ),
        text=FULL_PATCH,
    )


def test_parse_patch_splits_chunks_and_marks_end_of_file() -> None:
    text = (
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n\n@@ two\n three\n"
        "-four\n+cuatro\n*** End of File\n*** End Patch\n"
    )
    (hunk,) = parse_patch(text).hunks
    assert isinstance(hunk, UpdateFile)
    assert hunk.chunks == (
        UpdateChunk(None, ("one", ""), ("uno", ""), patch_line=3),
        UpdateChunk("two", ("three", "four"), ("three", "cuatro"), True, patch_line=7),
    )


def test_parse_patch_allows_first_chunk_without_context_marker() -> None:
    (hunk,) = parse_patch(
        "*** Begin Patch\n*** Update File: f.py\n import foo\n+bar\n*** End Patch"
    ).hunks
    assert isinstance(hunk, UpdateFile)
    assert hunk.chunks[0].old_lines == ("import foo",)
    assert hunk.chunks[0].new_lines == ("import foo", "bar")


def test_parse_patch_update_followed_by_add() -> None:
    text = (
        "*** Begin Patch\n*** Update File: a\n@@\n+line\n*** Add File: b\n+content\n*** End Patch"
    )
    assert parse_patch(text).hunks == (
        UpdateFile(path="a", chunks=(UpdateChunk(None, (), ("line",), patch_line=3),)),
        AddFile(path="b", content="content\n"),
    )


def test_parse_patch_empty_patch_has_no_hunks() -> None:
    assert parse_patch("*** Begin Patch\n*** End Patch").hunks == ()


def test_parse_patch_add_file_may_be_empty() -> None:
    assert parse_patch("*** Begin Patch\n*** Add File: e.txt\n*** End Patch").hunks == (
        AddFile(path="e.txt", content=""),
    )


@pytest.mark.parametrize(
    "text",
    [
        " *** Begin Patch\n*** Delete File: x\n*** End Patch ",
        "*** Begin Patch  \n*** Delete File: x\n   *** End Patch",
        "\n\n  *** Begin Patch\n*** Delete File: x\n*** End Patch\n\n",
        "*** Begin Patch\n   *** Delete File: x   \n*** End Patch",
        "*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r\n",
    ],
    ids=["padded-markers", "trailing-and-leading", "blank-lines-around", "padded-header", "crlf"],
)
def test_parse_patch_accepts_whitespace_padding(text: str) -> None:
    assert parse_patch(text).hunks == (DeleteFile(path="x"),)


@pytest.mark.parametrize("opener", ["<<EOF", "<<'EOF'", '<<"EOF"'])
def test_parse_patch_unwraps_heredoc(opener: str) -> None:
    inner = "*** Begin Patch\n*** Delete File: x\n*** End Patch"
    patch = parse_patch(f"{opener}\n{inner}\nEOF\n")
    assert patch.hunks == (DeleteFile(path="x"),)
    assert patch.text == inner


def test_parse_patch_padded_header_after_end_of_file_marker() -> None:
    text = (
        "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End of File\n"
        "  *** Delete File: b\n*** End Patch"
    )
    hunks = parse_patch(text).hunks
    assert hunks[1] == DeleteFile(path="b")


def test_parse_patch_blank_context_header_means_no_context() -> None:
    (hunk,) = parse_patch("*** Begin Patch\n*** Update File: a\n@@ \n-x\n*** End Patch").hunks
    assert isinstance(hunk, UpdateFile)
    assert hunk.chunks[0].context is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Invalid patch: the patch is empty; send text that starts with '*** Begin Patch'"),
        ("bad", "Invalid patch: the first line of the patch must be '*** Begin Patch'"),
        (
            "*** Begin Patch\nbad",
            "Invalid patch: the last line of the patch must be '*** End Patch'",
        ),
        (
            "*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch",
            "Invalid patch hunk on line 2: '*** Frobnicate File: foo' is not a valid hunk header",
        ),
        (
            "*** Begin Patch\n*** Update File: test.py\n*** End Patch",
            "Invalid patch hunk on line 2: the update of 'test.py' contains no changes",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n@@\n-x\n@@\n*** End Patch",
            "Invalid patch hunk on line 5: a change to 'a' has an '@@' line but no lines after it",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n@@\nbad line\n*** End Patch",
            "Invalid patch hunk on line 4: unexpected line 'bad line' in the update of 'a'",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End of File\nfoo\n*** End Patch",
            "Invalid patch hunk on line 6: expected an '@@' line to start the next change to 'a', "
            "got 'foo'",
        ),
        (
            "*** Begin Patch\n*** Add File: a\n+x\nstray\n*** End Patch",
            "Invalid patch hunk on line 4: 'stray' is not a valid hunk header",
        ),
        (
            "*** Begin Patch\n*** Update File: a\n*** Move to:\n@@\n-x\n*** End Patch",
            "Invalid patch hunk on line 3: '*** Move to:' for 'a' names no destination",
        ),
        (
            "<<'EOF'\n*** Begin Patch\n*** Delete File: x\nEOF\n",
            "Invalid patch: the first line of the patch must be '*** Begin Patch'",
        ),
    ],
    ids=[
        "empty",
        "no-begin",
        "no-end",
        "bad-header",
        "empty-update",
        "empty-chunk",
        "bad-change-line",
        "missing-at-at",
        "stray-line-after-add",
        "empty-move",
        "heredoc-without-end",
    ],
)
def test_parse_patch_error_names_line_and_problem(text: str, message: str) -> None:
    with pytest.raises(PatchParseError) as caught:
        parse_patch(text)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


_FRAGMENTS = st.sampled_from(
    [
        "*** Begin Patch",
        "*** End Patch",
        "*** Add File: a",
        "*** Delete File: b",
        "*** Update File: c",
        "*** Move to: d",
        "*** End of File",
        "@@",
        "@@ ctx",
        " ctx",
        "+add",
        "-del",
        "",
        "  ",
        "<<'EOF'",
        "EOF",
        "*",
        "@",
    ]
)


@given(st.lists(st.one_of(_FRAGMENTS, st.text(max_size=12)), max_size=14))
def test_parse_patch_raises_only_its_own_error(lines: list[str]) -> None:
    try:
        result = parse_patch("\n".join(lines))
    except PatchParseError as err:
        assert str(err)
    else:
        assert isinstance(result, Patch)


@given(st.text())
def test_parse_patch_raises_only_its_own_error_on_any_text(text: str) -> None:
    try:
        parse_patch(text)
    except PatchParseError:
        pass
