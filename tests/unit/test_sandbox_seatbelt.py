"""Unit tests for the pure Seatbelt profile builder (runs on every OS)."""

from __future__ import annotations

from pathlib import Path

from sandbox_helper.policy import HelperPolicy, WritableRoot
from sandbox_helper.seatbelt import SANDBOX_EXEC, build_profile, seatbelt_argv


def test_seatbelt_read_only_denies_by_default_and_writes_nothing_but_dev_null() -> None:
    profile, params = build_profile(HelperPolicy("read-only"), [])
    assert profile.startswith("(version 1)\n(deny default)\n")
    assert "(allow file-read*)" in profile
    assert "(allow file-write*" not in profile
    assert '(literal "/dev/null")' in profile
    assert "network-outbound" not in profile
    assert params == {}


def test_seatbelt_workspace_write_excludes_read_only_subpaths_via_params() -> None:
    roots = [WritableRoot("/work", ("/work/.git",)), WritableRoot("/private/tmp")]
    profile, params = build_profile(HelperPolicy("workspace-write"), roots)
    assert params == {
        "WRITABLE_ROOT_0": "/work",
        "WRITABLE_ROOT_0_RO_0": "/work/.git",
        "WRITABLE_ROOT_1": "/private/tmp",
    }
    assert (
        '(require-all (subpath (param "WRITABLE_ROOT_0")) '
        '(require-not (subpath (param "WRITABLE_ROOT_0_RO_0"))))'
    ) in profile
    assert '(subpath (param "WRITABLE_ROOT_1"))' in profile
    assert "/work" not in profile  # paths travel only as -D parameters


def test_seatbelt_network_rules_appear_only_when_allowed() -> None:
    with_net, _ = build_profile(HelperPolicy("workspace-write", network_access=True), [])
    without, _ = build_profile(HelperPolicy("workspace-write"), [])
    assert "(allow network-outbound)" in with_net
    assert "(allow network-outbound)" not in without


def test_seatbelt_argv_passes_profile_params_and_command(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    argv = seatbelt_argv(["ls", "-l"], HelperPolicy("workspace-write"), str(tmp_path), {})
    real = str(tmp_path.resolve())
    assert argv[:2] == [SANDBOX_EXEC, "-p"]
    assert argv[-3:] == ["--", "ls", "-l"]
    assert f"-DWRITABLE_ROOT_0={real}" in argv
    assert f"-DWRITABLE_ROOT_0_RO_0={real}/.git" in argv
    assert not any(a.endswith("/.codex") for a in argv)  # only existing subpaths are fenced
