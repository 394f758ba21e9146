"""Unit tests for the pure Seatbelt profile builder (runs on every OS)."""

from __future__ import annotations

from pathlib import Path

from sandbox_helper.policy import HelperPolicy, WritableRoot
from sandbox_helper.seatbelt import (
    SANDBOX_EXEC,
    build_profile,
    canonical_roots,
    git_pointer_targets,
    seatbelt_argv,
)


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
    assert f"-DWRITABLE_ROOT_0_RO_2={real}/.codex" in argv  # fenced although absent


def _write_clauses(profile: str) -> list[str]:
    """The profile's `allow` rules that grant any kind of file write."""
    rules = profile.split("\n(")
    return [r for r in rules if r.startswith("allow") and "file-write" in r]


def test_seatbelt_missing_codex_dir_is_fenced_so_it_cannot_be_created(tmp_path: Path) -> None:
    roots = canonical_roots(HelperPolicy("workspace-write"), str(tmp_path), {})
    real = str(tmp_path.resolve())
    assert not (tmp_path / ".codex").exists()
    # .git, .codex, .agents and .aws (what a later session or tool loads), fenced although absent
    assert roots[0] == WritableRoot(
        real, (f"{real}/.git", f"{real}/.agents", f"{real}/.codex", f"{real}/.aws")
    )
    profile, params = build_profile(HelperPolicy("workspace-write"), roots[:1])
    assert params["WRITABLE_ROOT_0_RO_2"] == f"{real}/.codex"
    assert '(require-not (subpath (param "WRITABLE_ROOT_0_RO_2")))' in profile


def test_seatbelt_protected_paths_are_carved_out_of_every_root_they_lie_under() -> None:
    """A workspace under /tmp: the /tmp clause must not re-allow the workspace's .git."""
    roots = [
        WritableRoot("/private/tmp/ws", ("/private/tmp/ws/.git", "/private/tmp/ws/.codex")),
        WritableRoot("/private/tmp", ("/private/tmp/.git", "/private/tmp/.codex")),
    ]
    profile, params = build_profile(HelperPolicy("workspace-write"), roots)
    tmp_fenced = {v for k, v in params.items() if k.startswith("WRITABLE_ROOT_1_RO_")}
    assert tmp_fenced == {
        "/private/tmp/ws/.git",
        "/private/tmp/ws/.codex",
        "/private/tmp/.git",
        "/private/tmp/.codex",
    }
    assert profile.count("require-not") == 6


def test_seatbelt_worktree_git_file_and_its_git_dirs_stay_read_only(tmp_path: Path) -> None:
    main_git = tmp_path / "main" / ".git"
    gitdir = main_git / "worktrees" / "wt"
    gitdir.mkdir(parents=True)
    (gitdir / "commondir").write_text("../..\n")
    worktree = tmp_path / "wt"
    worktree.mkdir()
    (worktree / ".git").write_text(f"gitdir: {gitdir}\n")
    policy = HelperPolicy("workspace-write", writable_roots=(str(tmp_path),))
    roots = canonical_roots(policy, str(worktree), {})
    fenced = set(roots[0].read_only_subpaths)
    real = tmp_path.resolve()
    assert {str(real / "wt" / ".git"), str(gitdir.resolve()), str(main_git.resolve())} <= fenced
    # the shared git dir lies under the second root (tmp_path), and is carved out there
    profile, params = build_profile(policy, roots)
    second = {v for k, v in params.items() if k.startswith("WRITABLE_ROOT_1_RO_")}
    assert str(main_git.resolve()) in second and str(gitdir.resolve()) in second


def test_seatbelt_git_pointer_targets_ignores_non_pointer_files(tmp_path: Path) -> None:
    (tmp_path / ".git").write_text("not a pointer\n")
    assert git_pointer_targets(str(tmp_path / ".git")) == []
    assert git_pointer_targets(str(tmp_path / "missing")) == []


def test_seatbelt_signals_reach_only_the_same_sandbox() -> None:
    for mode in ("read-only", "workspace-write", "danger-full-access"):
        profile, _ = build_profile(HelperPolicy(mode), [WritableRoot("/work")])
        signal_rules = [line for line in profile.splitlines() if "signal" in line]
        assert signal_rules == ["(allow signal (target same-sandbox))"], mode
        assert "(allow process-info* (target same-sandbox))" in profile


def test_seatbelt_no_metadata_writes_outside_writable_roots() -> None:
    """chmod, chown, utimes, xattrs and flags are `file-write*`; only the roots get that."""
    roots = [WritableRoot("/work", ("/work/.git",))]
    for mode in ("read-only", "workspace-write"):
        profile, _ = build_profile(HelperPolicy(mode), roots)
        for rule in _write_clauses(profile):
            if "file-write*" in rule:
                assert mode == "workspace-write", rule
                assert rule.startswith("allow file-write*\n  (require-all (subpath (param"), rule
            else:
                assert "file-write-data" in rule, rule
                assert "file-write-mode" not in rule and "file-write-owner" not in rule
