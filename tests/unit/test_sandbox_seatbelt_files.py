"""Seatbelt: the single files of an approved patch are writable as literals, nothing beside."""

from __future__ import annotations

from pathlib import Path

import pytest

from codex_core.exec import sandbox_argv
from sandbox_helper.policy import HelperPolicy, WritableRoot
from sandbox_helper.seatbelt import build_profile

FILE_CLAUSE = '(allow file-write*\n  (literal (param "WRITABLE_FILE_0")))\n'


@pytest.mark.parametrize("mode", ["read-only", "workspace-write"])
def test_seatbelt_files_are_writable_literals_under_any_mode(mode: str) -> None:
    roots = [WritableRoot("/work", ("/work/.git",))] if mode == "workspace-write" else []

    profile, params = build_profile(HelperPolicy(mode), roots, ["/home/u/notes.txt"])

    assert FILE_CLAUSE in profile
    assert params["WRITABLE_FILE_0"] == "/home/u/notes.txt"
    assert 'subpath (param "WRITABLE_FILE' not in profile


def test_seatbelt_files_absent_leave_the_profile_as_it_was() -> None:
    roots = [WritableRoot("/work", ())]
    policy = HelperPolicy("workspace-write")

    assert build_profile(policy, roots, []) == build_profile(policy, roots)


def test_seatbelt_files_reach_the_argv_of_a_macos_launch(tmp_path: Path) -> None:
    approved = "/Users/u/notes.txt"

    argv = sandbox_argv(
        ["true"],
        "macos",
        HelperPolicy("workspace-write"),
        tmp_path,
        {},
        writable_files=((9, approved),),
    )

    assert f"-DWRITABLE_FILE_0={approved}" in argv
    assert FILE_CLAUSE in argv[argv.index("-p") + 1]


def test_seatbelt_fences_codex_home_and_an_enclosing_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23 items 3 and 7 on macOS: both stay read-only under a writable root."""
    from sandbox_helper.seatbelt import canonical_roots

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "sub").mkdir()
    home = tmp_path / "codex-home"
    home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(home))
    policy = HelperPolicy("workspace-write", (str(tmp_path),), exclude_slash_tmp=True)
    roots = canonical_roots(policy, str(repo / "sub"), {})
    fenced = {p for root in roots for p in root.read_only_subpaths}
    assert str(home.resolve()) in fenced
    assert str((repo / ".git").resolve()) in fenced
