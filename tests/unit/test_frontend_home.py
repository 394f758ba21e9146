"""CODEX_HOME resolution in the frontend kit."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.frontend import CodexHomeError, find_codex_home


def test_frontend_home_defaults_to_dot_codex_under_home(tmp_path: Path) -> None:
    assert find_codex_home({"HOME": str(tmp_path)}) == tmp_path / ".codex"


def test_frontend_home_empty_value_counts_as_unset(tmp_path: Path) -> None:
    assert find_codex_home({"HOME": str(tmp_path), "CODEX_HOME": ""}) == tmp_path / ".codex"


def test_frontend_home_set_value_is_resolved(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert find_codex_home({"CODEX_HOME": str(tmp_path / "link")}) == (tmp_path / "real").resolve()


def test_frontend_home_missing_is_one_line_with_the_fix(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(CodexHomeError) as caught:
        find_codex_home({"CODEX_HOME": str(missing)})
    assert str(caught.value) == (
        f'CODEX_HOME points to "{missing}", but that path does not exist; '
        f"create it with `mkdir -p {missing}` or unset CODEX_HOME"
    )


def test_frontend_home_file_is_not_a_directory(tmp_path: Path) -> None:
    afile = tmp_path / "file"
    afile.write_text("")
    with pytest.raises(CodexHomeError, match="is not a directory"):
        find_codex_home({"CODEX_HOME": str(afile)})


def test_frontend_home_tilde_is_taken_as_written(tmp_path: Path) -> None:
    # The Codex CLI does not expand `~` in CODEX_HOME; neither do we.
    with pytest.raises(CodexHomeError, match='"~/x"'):
        find_codex_home({"CODEX_HOME": "~/x", "HOME": str(tmp_path)})
