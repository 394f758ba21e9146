"""Re-invoking this installation's own code as an isolated interpreter.

The core never executes a filesystem link to re-enter itself (a link under CODEX_HOME or
/tmp is swappable from inside a sandbox): it starts `sys.executable` isolated, with the
package root named explicitly. `sandbox_helper.launch` re-binds these paths read-only
inside the sandbox when they lie under a writable root.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sandbox_helper.launch import isolated_argv
from sandbox_helper.launch import package_root as _package_root


def package_root() -> Path:
    """The directory holding the `codex_core`, `codex_tui` and `sandbox_helper` packages."""
    return Path(_package_root())


def isolated_python_argv(target: str, args: list[str]) -> list[str]:
    """argv running `target` ("package.module:function", called with the argument list).

    The interpreter starts isolated (`-I`: no PYTHON* variables, no user site, no script
    directory on sys.path; `-S`: no site-packages or .pth hooks; `-B`: writes no bytecode),
    with this installation's package root appended to sys.path, so nothing a sandboxed
    command left in the environment or the working directory runs inside it. The target
    may import only the standard library and the three packages of this distribution.
    """
    return isolated_argv(sys.executable, _package_root(), target, args)
