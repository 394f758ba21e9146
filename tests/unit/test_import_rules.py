"""The import rules of the design, checked in fresh interpreters."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY_FOR_VERSION = ("textual", "rich", "httpx", "pydantic")


def loaded_modules(code: str) -> set[str]:
    probe = code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    return set(done.stdout.split())


def test_import_rules_core_never_loads_textual_or_tui() -> None:
    mods = loaded_modules(
        "import codex_core, codex_core.session, codex_core.kernel, codex_core.protocol, "
        "codex_core.config, codex_core.client, codex_core.tools.router"
    )
    assert "textual" not in mods
    assert not any(m == "codex_tui" or m.startswith("codex_tui.") for m in mods)


@pytest.mark.parametrize("argv", [["--version"], ["--help"]])
def test_import_rules_version_and_help_stay_light(argv: list[str]) -> None:
    code = (
        "import sys\n"
        f"sys.argv = ['codex', *{argv!r}]\n"
        "from codex_tui.entry import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit:\n"
        "        pass\n"
    )
    mods = loaded_modules(code)
    assert not [m for m in HEAVY_FOR_VERSION if m in mods]


def test_import_rules_exec_path_never_loads_textual() -> None:
    mods = loaded_modules(
        "import codex_tui.exec_cli, codex_tui.exec_run, codex_tui.exec_jsonl, codex_tui.exec_human"
    )
    assert "textual" not in mods
