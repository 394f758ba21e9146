"""The apply_patch command: argument or stdin, summary on stdout, one-line errors on stderr."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from codex_core.apply_patch.cli import main

ADD = "*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\n"


def test_apply_patch_cli_argument(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([ADD]) == 0
    out, err = capsys.readouterr()
    assert out == "Success. Updated the following files:\nA hello.txt\n"
    assert err == ""
    assert (tmp_path / "hello.txt").read_text() == "hi\n"


def test_apply_patch_cli_error_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["*** Begin Patch\n*** Delete File: nope\n*** End Patch"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "Failed to delete nope: the file does not exist\n"


def test_apply_patch_cli_usage_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["a", "b"]) == 2
    assert "exactly one argument" in capsys.readouterr().err


def _script(tmp_path: Path, name: str) -> Path:
    script = Path(sys.executable).parent / "codex"
    if not script.exists():
        pytest.skip(f"the codex console script is not installed at {script}")
    link = tmp_path / name
    link.symlink_to(script)
    return link


@pytest.mark.parametrize("name", ["apply_patch", "applypatch"])
def test_apply_patch_cli_reads_stdin_through_console_script(tmp_path: Path, name: str) -> None:
    link = _script(tmp_path, name)
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run(
        [str(link)], cwd=work, input=ADD, capture_output=True, text=True, timeout=30
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        "Success. Updated the following files:\nA hello.txt\n",
        "",
    )
    empty = subprocess.run(
        [str(link)], cwd=work, input="", capture_output=True, text=True, timeout=30
    )
    assert empty.returncode == 2
    assert "received no patch" in empty.stderr


def test_apply_patch_cli_heredoc_wrapped_argument(tmp_path: Path) -> None:
    link = _script(tmp_path, "apply_patch")
    done = subprocess.run(
        [str(link), f"<<'EOF'\n{ADD}EOF\n"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "hello.txt").read_text() == "hi\n"


def test_apply_patch_cli_does_not_import_heavy_libraries(tmp_path: Path) -> None:
    code = (
        "import sys\nfrom codex_core.apply_patch.cli import main\n"
        "heavy = {'pydantic', 'httpx', 'textual', 'rich'}\n"
        # codex_core's stand-in for pydantic's plugin loader is an empty module object
        "stub = 'pydantic.plugin._loader'\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy and m != stub))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
