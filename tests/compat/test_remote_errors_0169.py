"""`codex --remote` failing to reach its server, side by side with codex-rust 0.169 in a pty:
the same one `Error:` line and exit 1 — for the resume picker (ours used to print the
exception's class name and exit 0), for `unix://` with no daemon (0.169 says the socket is
not available) and with a stale control socket (0.169 names the refusal)."""

from __future__ import annotations

import os
import re
import socket
from pathlib import Path

import pexpect
import pytest

from tests.mcp.conftest import free_port

pytestmark = pytest.mark.e2e

ANSI = re.compile(r"\x1b\[[0-9;?<>=]*[a-zA-Z~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>]")


def _error_line(binary: str, args: list[str], home: Path, cwd: Path) -> tuple[int, str]:
    """The exit status and the `Error:` line of a run that cannot reach its server."""
    env = {**os.environ, "CODEX_HOME": str(home), "TERM": "xterm-256color"}
    env.pop("RUST_BACKTRACE", None)
    child = pexpect.spawn(binary, args, cwd=str(cwd), env=env, dimensions=(30, 110))
    out = b""
    try:
        while True:
            out += child.read_nonblocking(65536, timeout=30)
    except pexpect.EOF:
        pass
    child.close()
    text = ANSI.sub("", out.decode("utf-8", "replace"))
    errors = [line.strip() for line in re.split(r"[\r\n]+", text) if "Error: " in line]
    assert errors, text
    return child.exitstatus, errors[0][errors[0].index("Error: ") :]


def _stale_control_socket(home: Path) -> None:
    path = home / "app-server-control" / "app-server-control.sock"
    path.parent.mkdir(parents=True)
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))  # left behind: nobody listens


@pytest.mark.parametrize("case", ["resume picker, port closed", "no daemon", "stale socket"])
def test_remote_unreachable_as_0169(
    rust_bin: str, codex_bin: Path, shared_home: Path, tmp_path: Path, case: str
) -> None:
    args = ["--remote", "unix://"]
    if case == "resume picker, port closed":
        args = ["resume", "--remote", f"ws://127.0.0.1:{free_port()}"]
    elif case == "stale socket":
        _stale_control_socket(shared_home)
    theirs = _error_line(rust_bin, args, shared_home, tmp_path)
    ours = _error_line(str(codex_bin), args, shared_home, tmp_path)
    assert ours == theirs
    assert ours[0] == 1
