"""The helper's second stage stays cheap to start: no ctypes, os, struct or typing imports."""

import errno
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What `import ctypes` / `import os` would pull in (~4 ms under the isolated start).
SLOW = {"ctypes", "os", "struct", "types", "typing", "__future__", "fcntl", "termios", "stat"}


@pytest.mark.skipif(sys.platform != "linux", reason="the Linux helper")
def test_sandbox_stage2_imports_neither_ctypes_nor_os() -> None:
    probe = (
        f"import sys;sys.path.append({str(ROOT)!r});import sandbox_helper.linux;"
        "print(' '.join(sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-B", "-c", probe],
        capture_output=True,
        text=True,
        timeout=30,
        env={},
        check=True,
    )
    assert not SLOW & set(done.stdout.split())


@pytest.mark.skipif(sys.platform != "linux", reason="the Linux helper")
def test_sandbox_libc_calls_return_results_and_errno() -> None:
    import os

    from sandbox_helper import seccomp
    from sandbox_helper._libc import Libc, get_errno

    libc = Libc()
    getpid = {"x86_64": 39, "aarch64": 172}.get(seccomp.machine())
    if getpid is not None:
        assert libc.syscall(getpid) == os.getpid()
    assert libc.prctl(seccomp.PR_GET_SECCOMP) == 0  # this test process is not filtered
    assert libc.prctl(-1) == -1  # an int-returning -1 comes back negative
    assert get_errno() == errno.EINVAL
    assert libc.ioctl(-1, 0x540E, 0) == -1
    assert get_errno() == errno.EBADF
    with pytest.raises(TypeError):
        libc.prctl(1, 2, 3, 4, 5, 6)
