"""A sandboxed command cannot create user namespaces (new privileges over its own mounts)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.security.test_linux_helpers import cli, linux_sandbox, workspace

pytestmark = [linux_sandbox]


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs util-linux unshare")
def test_linux_no_new_user_namespace_but_threads_and_children_work(tmp_path: Path) -> None:
    ws, _ = workspace(tmp_path)
    py = (
        "import subprocess, threading; t = threading.Thread(target=print); t.start(); "
        "t.join(); print(subprocess.run(['echo', 'child'], capture_output=True, "
        "text=True).stdout.strip())"
    )
    script = (
        "unshare -U true 2>/dev/null && echo userns-created || echo userns-denied; "
        "unshare -Urm true 2>/dev/null && echo root-map-created || echo root-map-denied; "
        f'python3 -c "{py}"; (sleep 0.05 &); wait; echo done'
    )
    proc = cli(ws, script)
    assert proc.stdout.split() == ["userns-denied", "root-map-denied", "child", "done"], proc.stderr
