"""Recognising apply_patch calls inside shell command argv."""

from __future__ import annotations

import pytest

from codex_core.apply_patch import extract_apply_patch_from_shell, parse_patch

PATCH = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch"


@pytest.mark.parametrize("name", ["apply_patch", "applypatch"])
def test_extract_apply_patch_direct_argv(name: str) -> None:
    assert extract_apply_patch_from_shell([name, PATCH]) == (PATCH, None)


@pytest.mark.parametrize("opener", ["<<'EOF'", "<<EOF", '<<"EOF"', "<< 'PATCH'"])
def test_extract_apply_patch_heredoc_forms(opener: str) -> None:
    delimiter = opener.strip("<' \"")
    script = f"apply_patch {opener}\n{PATCH}\n{delimiter}\n"
    assert extract_apply_patch_from_shell(["bash", "-lc", script]) == (PATCH, None)


@pytest.mark.parametrize(
    ("prefix", "workdir"),
    [
        ("cd src && ", "src"),
        ("cd 'my dir' && ", "my dir"),
        ('cd "other dir"&& ', "other dir"),
        ("cd /abs/path &&", "/abs/path"),
    ],
)
def test_extract_apply_patch_heredoc_with_cd(prefix: str, workdir: str) -> None:
    script = f"{prefix}apply_patch <<'EOF'\n{PATCH}\nEOF"
    assert extract_apply_patch_from_shell(["bash", "-lc", script]) == (PATCH, workdir)


@pytest.mark.parametrize("shell", ["bash", "/bin/bash", "zsh", "sh"])
@pytest.mark.parametrize("flag", ["-lc", "-c"])
def test_extract_apply_patch_accepts_common_shells(shell: str, flag: str) -> None:
    script = f"applypatch <<'EOF'\n{PATCH}\nEOF\n"
    assert extract_apply_patch_from_shell([shell, flag, script]) == (PATCH, None)


def test_extract_apply_patch_body_parses() -> None:
    found = extract_apply_patch_from_shell(["bash", "-lc", f"apply_patch <<'EOF'\n{PATCH}\nEOF\n"])
    assert found is not None
    assert len(parse_patch(found[0]).hunks) == 1


def test_extract_apply_patch_keeps_lines_that_only_contain_the_delimiter_indented() -> None:
    body = "*** Begin Patch\n*** Update File: a\n@@\n EOF\n+x\n*** End Patch"
    script = f"apply_patch <<'EOF'\n{body}\nEOF\n"
    assert extract_apply_patch_from_shell(["bash", "-lc", script]) == (body, None)


@pytest.mark.parametrize(
    "argv",
    [
        ["ls", "-la"],
        ["apply_patch"],
        ["apply_patch", PATCH, "extra"],
        ["bash", "-lc", "echo hi"],
        ["bash", "-lc", f"echo hi; apply_patch <<'EOF'\n{PATCH}\nEOF\n"],
        ["bash", "-lc", f"apply_patch <<'EOF'\n{PATCH}\nEOF\necho done\n"],
        ["bash", "-lc", f"apply_patch <<'EOF'\n{PATCH}\n"],
        ["bash", "-lc", f"cd a b && apply_patch <<'EOF'\n{PATCH}\nEOF\n"],
        ["bash", "-lc", f"cd a || apply_patch <<'EOF'\n{PATCH}\nEOF\n"],
        ["bash", "-lc", f"cd $HOME && apply_patch <<'EOF'\n{PATCH}\nEOF\n"],
        ["bash", "-x", f"apply_patch <<'EOF'\n{PATCH}\nEOF\n"],
        ["python", "-c", f"apply_patch <<'EOF'\n{PATCH}\nEOF\n"],
        ["bash", "-lc", f"apply_patch <<'EOF' > out\n{PATCH}\nEOF\n"],
    ],
    ids=[
        "other-command",
        "no-patch",
        "extra-argument",
        "other-script",
        "command-before",
        "command-after",
        "unterminated-heredoc",
        "cd-two-arguments",
        "cd-or",
        "cd-expansion",
        "unknown-flag",
        "not-a-shell",
        "extra-redirect",
    ],
)
def test_extract_apply_patch_rejects_other_commands(argv: list[str]) -> None:
    assert extract_apply_patch_from_shell(argv) is None
