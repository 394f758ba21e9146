"""Console-script entry: arg0 dispatch first, then lazy import of the chosen frontend.

This module must stay standard-library only: `codex sandbox -- CMD` runs through it and is
benchmarked. The Linux sandbox helper is not reached through arg0 any more: the core
starts it as an isolated interpreter (see `sandbox_helper.launch`).
"""

from __future__ import annotations

import os
import sys

APPLY_PATCH_ARG0S = ("apply_patch", "applypatch")
CACHE_KINDS = {"exec": "exec", "e": "exec", "app-server": "app-server", "mcp-server": "mcp"}
"""Commands whose compile-cache table is their own (see `compile_cache.cache_file`); the TUI
has "tui" (`cache_kind`) and the other commands share "main"."""
OTHER_COMMANDS = frozenset(
    {
        "acp", "agents", "apply", "a", "archive", "cloud", "completion", "debug", "delete",
        "doctor", "execpolicy", "exec-server", "features", "help", "login", "logout", "mcp",
        "migrate-nfs-db", "migrate-rollouts", "plugin", "queue", "remote-control", "review",
        "sandbox", "sessions", "unarchive", "update",
    }
)  # fmt: skip
"""The subcommands that neither are the TUI nor have a table of their own (the CLI's command
names but `resume` and `fork`; tests/unit/test_entry_cache_kind.py keeps them in step)."""
NO_HOME_NEEDED = frozenset({"-h", "--help", "help", "-V", "--version"})
"""Arguments that only print text: they work whatever CODEX_HOME says, as in the Codex CLI."""


def main() -> int:
    """Run the command, then leave without tearing the interpreter down (see `leave`)."""
    return leave(dispatch())


def leave(code: int) -> int:
    """End the process with `code` once exit handlers ran and output is flushed.

    Tearing down the interpreter (freeing every module and pydantic schema) takes 150–300 ms
    after a session, and the process is ending anyway. Files are closed by then: the session
    closes its rollout at shutdown and writes go through `with`. With other threads alive,
    Python's normal exit (which waits for them) is kept: `code` is returned.
    """
    import atexit

    threading = sys.modules.get("threading")  # not imported: no thread was started
    if threading is not None and threading.active_count() > 1:
        return code
    atexit._run_exitfuncs()  # logging.shutdown and friends, as a normal exit would
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    os._exit(code)


def dispatch() -> int:
    """Dispatch on the name the script was started under, then run the CLI."""
    arg0 = os.path.basename(sys.argv[0]) if sys.argv else "codex"
    # httpx imports its command-line client (click, pygments, rich: ~50 ms) whenever those
    # are installed, and rich is (Textual needs it). codex never runs that client; a None
    # entry makes httpx fall back to its stub `main`, as when they are missing.
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
    if arg0 in APPLY_PATCH_ARG0S:
        from codex_core.apply_patch.cli import main as apply_patch_main

        return apply_patch_main(sys.argv[1:])
    light = sys.argv[1:] in (["--version"], ["-V"]) or sys.argv[1:2] in (["sandbox"], ["debug"])
    if not light:
        # Every other command loads a few hundred modules: their code comes from one file
        # beside the bytecode (module_bundle), from here on.
        from codex_core.module_bundle import install as bundle_modules

        bundle_modules()
    if not NO_HOME_NEEDED.intersection(sys.argv[1:]):
        # Every subcommand reads CODEX_HOME: refuse a bad one here, once, in one line.
        from codex_core.frontend.home import CodexHomeError, codex_home_dir

        try:
            codex_home_dir()
        except CodexHomeError as err:
            print(f"codex: {err}", file=sys.stderr)
            return 1
    if sys.argv[1:] in (["--version"], ["-V"]):
        # argparse's version action builds a help formatter (shutil, bz2, lzma: ~10 ms)
        from codex_core import __version__

        print(f"codex-cli {__version__}")
        return 0
    if sys.argv[1:2] in (["sandbox"], ["debug"]):
        # `codex sandbox -- CMD` is benchmarked: skip argparse and the CLI module entirely.
        from codex_tui.cli.sandbox import main as sandbox_main

        return sandbox_main(sys.argv[2:])
    # Every other command creates a few hundred dataclasses and compiles ~130 patterns as
    # it loads: what they compile to comes from a cache beside the bytecode (compile_cache).
    from codex_core.compile_cache import install as keep_compiled

    keep_compiled(kind=cache_kind(sys.argv[1:]))
    if sys.argv[1:2] == ["exec"]:
        # Until its session is up (`codex_tui.exec.run` resumes collecting), exec only
        # builds what lives as long as the process: collecting would walk it again and again.
        import gc

        gc.disable()
    from codex_tui.cli.main import main as cli_main

    return cli_main(sys.argv[1:])


def cache_kind(args: list[str]) -> str:
    """Which compile-cache table a command loads: its own for exec, the servers and the TUI
    (`codex [options] [PROMPT]`, `resume`, `fork`: what the TUI compiles is ~half of what
    all commands together do, and a table loads whole before the app-server child starts),
    "main" for the other subcommands."""
    first = args[0] if args else ""
    if first in CACHE_KINDS:
        return CACHE_KINDS[first]
    return "main" if first in OTHER_COMMANDS else "tui"


if __name__ == "__main__":
    sys.exit(main())
