"""The trust question, side by side in a pty: our TUI asks exactly where codex-rust 0.169's
asks — not outside git (where ours used to), but in a repository even with `-s`/`-a` given
and even when a parent folder of the repository is trusted (the rule: codex_tui/app/trust_rule)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.support.model_server import ModelServer
from tests.support.trust import trust_project

pytestmark = pytest.mark.e2e

COMPOSER = "Ask Codex to do anything"  # both TUIs' empty composer
ASKED = {"rust": "Trust this folder?", "ours": "You are running Codex in"}
# 0.169 first offers a newer model once; this record says it was offered.
NOTICE = '[tui]\nscreen_reader_detection_done = true\n\n[notice.model_migrations]\n"gpt-5.5" = "gpt-6-sol"\n'
MODEL = "gpt-5.5"
SETTLE = 1.5
"""How long the loaded chat must stay before the question counts as not asked."""


def _spawn(
    binary: str, args: list[str], cwd: Path, home: Path
) -> tuple[pexpect.spawn, pyte.Screen, pyte.Stream]:
    """A TUI in a 110×30 pty with the screen its output is fed to."""
    env = {**os.environ, "CODEX_HOME": str(home), "TERM": "xterm-256color"}
    env["OPENAI_API_KEY"] = "sk-test"
    child = pexpect.spawn(
        binary, args, cwd=str(cwd), env=env, dimensions=(30, 110), encoding="utf-8"
    )
    screen = pyte.Screen(110, 30)
    return child, screen, pyte.Stream(screen)


def _first_screen(binary: str, args: list[str], cwd: Path, home: Path, asked: str) -> str:
    """What the TUI shows first: the trust question or the composer."""
    child, screen, stream = _spawn(binary, args, cwd, home)
    deadline = time.monotonic() + 30
    try:
        while True:
            shown = "\n".join(screen.display)
            if asked in shown:
                return "asked"
            # Both draw a composer before the question can come (0.169 its welcome, ours the
            # first frame): only the loaded chat's footer names the model.
            if COMPOSER in shown and MODEL in shown.lower():
                deadline = min(deadline, time.monotonic() + SETTLE)
            if time.monotonic() > deadline:
                assert COMPOSER in shown, shown
                return "composer"
            try:
                stream.feed(child.read_nonblocking(65536, timeout=0.3))
            except pexpect.TIMEOUT:
                continue
    finally:
        child.terminate(force=True)


@pytest.mark.parametrize(
    ("case", "expected"),
    [("plain folder", "composer"), ("repo with -s/-a", "asked"), ("repo, parent trusted", "asked")],
)
def test_trust_question_where_0169_asks(
    rust_bin: str,
    codex_bin: Path,
    shared_home: Path,
    tmp_path: Path,
    case: str,
    expected: str,
) -> None:
    plain, repo = tmp_path / "plain", tmp_path / "repo"
    plain.mkdir()
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, timeout=30)
    (shared_home / "config.toml").write_text(NOTICE)
    flags: list[str] = []
    cwd = plain if case == "plain folder" else repo
    if case == "repo with -s/-a":
        flags = ["-s", "workspace-write", "-a", "never"]
    if case == "repo, parent trusted":
        trust_project(tmp_path, codex_home=shared_home)
    with ModelServer() as server:
        provider = [*server.cli_flags(), "-c", f'model="{MODEL}"']
        for who, binary in (("rust", rust_bin), ("ours", str(codex_bin))):
            seen = _first_screen(binary, [*provider, *flags], cwd, shared_home, ASKED[who])
            assert seen == expected, f"{who} in {case}"


def _leave(binary: str, args: list[str], cwd: Path, home: Path, asked: str) -> None:
    """Answer the trust question with its second choice."""
    child, screen, stream = _spawn(binary, args, cwd, home)
    deadline = time.monotonic() + 30
    try:
        while asked not in "\n".join(screen.display):
            assert time.monotonic() < deadline, "\n".join(screen.display)
            try:
                stream.feed(child.read_nonblocking(65536, timeout=0.3))
            except pexpect.TIMEOUT:
                continue
        child.send("2")
        try:  # ours quits: once it has exited it can write nothing more
            child.expect(pexpect.EOF, timeout=SETTLE)
        except pexpect.TIMEOUT:
            pass  # 0.169 stays (its agent command center): SETTLE to write, if it would
    finally:
        child.terminate(force=True)


def test_second_choice_records_no_trust_as_0169(
    rust_bin: str, codex_bin: Path, shared_home: Path, tmp_path: Path
) -> None:
    """0.169 offers trust or leave (to its agent command center), no "do not trust": its
    second choice writes nothing, and neither does ours (which quits)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, timeout=30)
    with ModelServer() as server:
        provider = [*server.cli_flags(), "-c", f'model="{MODEL}"']
        for who, binary in (("rust", rust_bin), ("ours", str(codex_bin))):
            (shared_home / "config.toml").write_text(NOTICE)
            _leave(binary, provider, repo, shared_home, ASKED[who])
            assert (shared_home / "config.toml").read_text() == NOTICE, who
