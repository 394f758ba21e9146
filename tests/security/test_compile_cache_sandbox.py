"""The compile cache and the module bundle are code the host loads at every start: a sandboxed
command can neither replace them nor plant a link where the host writes them next, even with
the package directory listed as a writable root (what the model controls: the commands it
runs)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from codex_core.compile_cache import cache_file
from codex_core.module_bundle import bundle_file

from .test_linux_helpers import CONFINED, cli, linux_sandbox

pytestmark = [linux_sandbox]


@pytest.mark.parametrize("kept", ["compile cache", "module bundle"])
def test_sandboxed_commands_cannot_poison_what_start_up_loads(tmp_path: Path, kept: str) -> None:
    table = cache_file() if kept == "compile cache" else Path(bundle_file())
    before = table.read_bytes() if table.exists() else None
    outside = tmp_path / "outside.txt"
    outside.write_text("keep\n")
    pycache = table.parent
    attack = "; ".join(
        [
            f"printf 'poison' > {table} 2>/dev/null",
            f"rm -f {table} 2>/dev/null",
            # the temporary names the host writes through (one per pid): links to outside
            *(
                f"ln -sf {outside} {table}.{pid}.tmp 2>/dev/null"
                for pid in range(os.getpid(), os.getpid() + 5)
            ),
            f"mv {pycache} {pycache}.moved 2>/dev/null",
            "echo done",
        ]
    )
    writable = f'sandbox_workspace_write.writable_roots=["{pycache.parent}"]'
    ws = tmp_path / "ws"
    ws.mkdir()
    proc = cli(ws, attack, *CONFINED, "-c", writable)
    assert proc.stdout.strip() == "done", proc.stderr
    assert (table.read_bytes() if table.exists() else None) == before
    assert pycache.is_dir()
    for pid in range(os.getpid(), os.getpid() + 5):
        assert not Path(f"{table}.{pid}.tmp").is_symlink()
    assert outside.read_text() == "keep\n"
