"""How commands and ages are shown, once for every frontend."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from codex_core.frontend import display_command, relative_age


def test_frontend_display_command_strips_shell_wrappers() -> None:
    assert display_command(["bash", "-lc", "ls -la | head"]) == "ls -la | head"
    assert display_command(["/bin/zsh", "-c", "make"]) == "make"
    assert display_command(["/usr/bin/bash", "-lc", "echo hi"]) == "echo hi"


def test_frontend_display_command_quotes_plain_argv() -> None:
    assert display_command(["git", "commit", "-m", "two words"]) == "git commit -m 'two words'"
    assert display_command(["bash", "-x", "script.sh"]) == "bash -x script.sh"
    assert display_command(["python", "-c", "print(1)"]) == "python -c 'print(1)'"


def test_frontend_relative_age_words() -> None:
    now = 1_760_000_000.0
    assert [relative_age(now - s, now) for s in (0, 5, 45, 60, 150, 7300, 200_000)] == [
        "just now",
        "just now",
        "45 seconds ago",
        "1 minute ago",
        "2 minutes ago",
        "2 hours ago",
        "2 days ago",
    ]


def test_frontend_relative_age_accepts_datetimes_and_future() -> None:
    now = datetime(2025, 10, 1, 12, tzinfo=UTC)
    assert relative_age(now - timedelta(hours=5), now) == "5 hours ago"
    assert relative_age(now + timedelta(hours=1), now) == "just now"
