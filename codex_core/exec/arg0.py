"""The `codex-linux-sandbox` symlink that re-enters the console script as the sandbox helper.

pip console scripts are shebang scripts, so the kernel hands the interpreter the path it
was started through; a symlink named `codex-linux-sandbox` therefore reaches
`codex_tui.entry.main` with that name in `sys.argv[0]`, and arg0 dispatch runs the helper.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

LINUX_SANDBOX_ARG0 = "codex-linux-sandbox"

# Used only when no `codex` console script exists (e.g. running from a source checkout).
LAUNCHER_TEMPLATE = """#!{python}
import sys
sys.path.insert(0, {root!r})
from sandbox_helper.linux import main
sys.exit(main(sys.argv[1:]))
"""


def find_codex_script() -> Path | None:
    """The `codex` console script beside this interpreter, else the one on PATH."""
    beside = Path(sys.executable).parent / "codex"
    if beside.is_file() and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("codex")
    return Path(found) if found else None


def _arg0_dir(codex_home: Path | None) -> Path:
    home = codex_home or (Path(os.environ["CODEX_HOME"]) if os.environ.get("CODEX_HOME") else None)
    if home is not None:
        path = home / "tmp" / "arg0"
        path.mkdir(parents=True, exist_ok=True)
        return path
    path = Path(tempfile.gettempdir()) / f"codex-arg0-{os.getuid()}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        info = path.lstat()
        if info.st_uid == os.getuid() and not info.st_mode & 0o022 and path.is_dir():
            return path
    except OSError:
        pass
    return Path(tempfile.mkdtemp(prefix="codex-arg0-"))  # someone else owns the shared name


def _install(path: Path, make: str, target: str) -> None:
    """Atomically place a symlink (`make == "link"`) or a launcher file at `path`."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
    if make == "link":
        tmp.symlink_to(target)
    else:
        tmp.write_text(target)
        tmp.chmod(0o755)
    os.replace(tmp, path)


def linux_sandbox_exe(codex_home: Path | None = None) -> Path:
    """Path of an up-to-date `codex-linux-sandbox` entry point, creating or refreshing it.

    It lives in `$CODEX_HOME/tmp/arg0/` (or a private temp dir without a CODEX_HOME) and
    points at this installation's `codex` script, so an upgrade or a second venv never
    runs a stale helper.
    """
    path = _arg0_dir(codex_home) / LINUX_SANDBOX_ARG0
    script = find_codex_script()
    if script is not None:
        target = str(script.resolve())
        try:
            if path.is_symlink() and os.readlink(path) == target:
                return path
        except OSError:
            pass
        _install(path, "link", target)
        return path
    root = str(Path(__file__).resolve().parents[2])
    launcher = LAUNCHER_TEMPLATE.format(python=sys.executable, root=root)
    try:
        if not path.is_symlink() and path.read_text() == launcher:
            return path
    except OSError:
        pass
    _install(path, "file", launcher)
    return path


def package_root() -> Path:
    """The directory holding the `codex_core`, `codex_tui` and `sandbox_helper` packages."""
    return Path(__file__).resolve().parents[2]


def isolated_python_argv(target: str, args: list[str]) -> list[str]:
    """argv running `target` ("package.module:function", called with the argument list).

    The interpreter starts isolated (`-I`: no PYTHON* variables, no user site, no script
    directory on sys.path; `-S`: no site-packages or .pth hooks; `-B`: writes no bytecode),
    with only this installation's package root on sys.path, so nothing a sandboxed command
    left in the environment or the working directory runs inside it. The target may import
    only the standard library and the three packages of this distribution.
    """
    module, _, function = target.partition(":")
    boot = (
        f"import sys;sys.path.insert(0,{str(package_root())!r});"
        f"from {module} import {function} as m;sys.exit(m(sys.argv[1:]))"
    )
    return [sys.executable, "-I", "-S", "-B", "-c", boot, *args]
