"""The app-server's warm-up thread ends before the interpreter finalises.

A daemon thread still importing or inside an extension module while Python finalises can
crash the process (CI saw `codex app-server` exit with -11 after its client closed stdin).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path


def test_process_exit_waits_for_the_warmup(tmp_path: Path) -> None:
    done = tmp_path / "warm-done"
    script = textwrap.dedent(
        f"""
        import time
        from codex_core.servers.app_server import warmup

        def slow():
            time.sleep(0.4)
            open({str(done)!r}, "w").close()

        warmup._warm = slow
        warmup.start_warmup()
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert done.exists(), "the process finalised while the warm-up was still running"
