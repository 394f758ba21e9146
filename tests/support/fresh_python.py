"""Run a few lines in a fresh interpreter: what a start-up or import test sees before
anything of this test session is loaded."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def python_output(
    code: str, *, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 60
) -> str:
    """The stdout of `python -c code` (this interpreter, stdin closed); a non-zero exit
    fails the test with the end of its stderr."""
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout
