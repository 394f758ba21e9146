"""`codex` without a subcommand: load the config, run the Textual app, print the exit summary.

Importing this module is cheap: Textual and the session are imported only when the TUI runs.
"""

from __future__ import annotations

import gc
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from codex_tui.cli.first_frame import FirstFrame

if TYPE_CHECKING:
    from subprocess import Popen

    from codex_core.config import Config, ConfigOverrides
    from codex_core.servers.app_server.remote import RemoteAddress
    from codex_tui.app.codex_app import ExitSummary
    from codex_tui.app.real_boot import RealBoot
    from codex_tui.app.remote_boot import RemoteBoot
    from codex_tui.cli.session_frame import SessionPainter

    Boot = RealBoot | RemoteBoot

ResumeMode = Literal["none", "picker", "last", "id"]
LOG_FILE = "codex-tui.log"


def run_tui(
    overrides: ConfigOverrides,
    cli_overrides: list[str],
    *,
    prompt: str | None,
    images: list[Path],
    resume: ResumeMode = "none",
    resume_id: str | None = None,
    show_all: bool = False,
    fork: bool = False,
    remote: str | None = None,
    remote_token_env: str | None = None,
) -> int:
    """Run the interactive app; returns the process exit code.

    Args:
        overrides: Values from dedicated flags (model, cwd, policies, profile, oss).
        cli_overrides: Raw `-c key=value` strings.
        prompt: A first message to send once the session is ready.
        images: Image files to attach to the first message.
        resume: `picker` shows the resume picker, `last` resumes the newest session,
            `id` resumes `resume_id`, `none` starts a new session.
        resume_id: Session id (or unambiguous prefix) for `resume="id"`.
        show_all: List sessions of every directory, not only the current one.
        fork: Open a copy of the chosen session (`codex fork`) instead of the session.
        remote: Attach to the app-server at this address (`--remote`) instead of running
            the session here.
        remote_token_env: The environment variable holding the server's bearer token.
    """
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            'codex: the interactive UI needs a terminal; use `codex exec "…"` in scripts and pipes.',
            file=sys.stderr,
        )
        return 1
    try:
        attach = _remote_target(remote, remote_token_env, fork)
    except ValueError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    # LINES/COLUMNS exported by a shell or a test runner go stale on resize and would override
    # the terminal's real size: let the terminal speak for itself.
    for stale in ("LINES", "COLUMNS"):
        os.environ.pop(stale, None)
    # The composer goes up before the config, the core and Textual load, and echoes what is
    # typed until the app takes over (see first_frame).
    # Inline, the frame would draw on the alternate screen the run must never enter.
    inline = inline_requested(cli_overrides)
    frame: FirstFrame | None = None
    if inline:
        pass
    elif resume != "picker":
        frame = FirstFrame.paint(keys=sys.stdin)
    elif attach is None:  # the picker's first page, as it will show (see picker_frame)
        frame = _picker_frame(overrides, show_all, fork)
    try:
        return _run(
            frame,
            overrides,
            cli_overrides,
            prompt=prompt,
            images=images,
            resume=resume,
            resume_id=resume_id,
            show_all=show_all,
            fork=fork,
            attach=attach,
        )
    finally:
        if frame is not None:
            frame.close()


def _session_painter(
    frame: FirstFrame | None, prompt: str | None, images: list[Path], notice: str | None
) -> SessionPainter | None:
    """What paints a new session's launch prompt and answer on the frame while Textual loads
    (`session_frame`); None when the chat will show more than that first."""
    if frame is None or not prompt or images or notice is not None:
        return None
    from codex_core import __version__
    from codex_tui.app.formatting import shorten_path
    from codex_tui.cli.session_frame import SessionPainter

    return SessionPainter(frame, __version__, prompt, shorten_path)


def _picker_frame(overrides: ConfigOverrides, show_all: bool, fork: bool) -> FirstFrame | None:
    from codex_core.frontend.home import CodexHomeError, find_codex_home
    from codex_tui.cli.picker_frame import paint_picker

    try:
        home = find_codex_home()
    except CodexHomeError:
        return None  # the config load says why
    return paint_picker(home, overrides.cwd, show_all=show_all, fork=fork)


def _spawn_child(overrides: ConfigOverrides, cli_overrides: list[str]) -> Popen[bytes] | None:
    """A `codex app-server` child for the local session, or None if it cannot be started
    (`RealBoot.start` tries again and says why)."""
    from codex_core.servers.app_server.local import flags_to_json
    from codex_tui.app.app_server_process import AppServerProcessError, spawn_app_server

    setup = {"config": list(cli_overrides), "flags": flags_to_json(overrides)}
    try:
        return spawn_app_server(setup)
    except AppServerProcessError:
        return None


def _run(
    frame: FirstFrame | None,
    overrides: ConfigOverrides,
    cli_overrides: list[str],
    *,
    prompt: str | None,
    images: list[Path],
    resume: ResumeMode,
    resume_id: str | None,
    show_all: bool,
    fork: bool = False,
    attach: RemoteTarget | None = None,
) -> int:
    # What start-up loads lives as long as the process: collecting while it loads (~100 ms
    # with Textual) only walks it; it is frozen once loaded (below).
    gc.disable()
    # The local session's app-server child starts first: it loads while the config and
    # Textual load here (its setup is the command line alone). Not under the resume picker:
    # there it would take the CPU the list needs; the picker has it started once the list
    # is on the screen (`on_listed`), while the user reads.
    picker = resume == "picker"
    if attach is None:  # a local session: the TUI's default policies (trust-dependent)
        overrides.tui_policies = True
    spare = _spawn_child(overrides, cli_overrides) if attach is None and not picker else None
    from codex_core import __version__
    from codex_core.config import ConfigError, load_config

    def fail(message: str) -> int:
        if spare is not None and spare.stdin is not None:
            spare.stdin.close()  # it ends at end of input
        if frame is not None:
            frame.close()  # the message belongs on the user's screen, not the frame's
        print(f"codex: {message}", file=sys.stderr)
        return 1

    try:
        config = load_config(overrides, cli_overrides)
    except ConfigError as err:
        return fail(str(err))
    _log_to_file(config)
    notice = None
    boot: Boot
    try:
        if attach is not None:
            from codex_tui.app.remote_boot import RemoteBoot, thread_overrides

            chosen = thread_overrides(
                overrides.model,
                overrides.approval_policy,
                overrides.sandbox_mode,
                str(overrides.cwd) if overrides.cwd is not None else None,
                overrides.approvals_reviewer,
            )
            boot = RemoteBoot(
                attach.address, attach.token, resume_last=resume == "last", overrides=chosen
            )
            resume_path = boot.thread_path(resume_id) if resume == "id" and resume_id else None
        elif fork:
            from codex_tui.cli.fork import fork_for_tui

            resume_path, notice = fork_for_tui(config, resume, resume_id, show_all)
        else:
            resume_path = _resume_path(config, resume, resume_id, show_all)
    except LookupError as err:
        return fail(str(err))

    if attach is None:
        from codex_tui.app.real_boot import RealBoot

        boot = RealBoot(overrides, list(cli_overrides), config, LOG_FILE, spare)
        if not picker:  # the session is known: the child creates it while Textual loads,
            # and starts the launch prompt's turn as soon as it has (see early_turn)
            launch = (prompt or "", [str(path) for path in images]) if prompt or images else None
            boot.open_early(resume_path, launch, _session_painter(frame, prompt, images, notice))
    if not picker:
        boot.prepare_session()  # the core loads in its process while Textual loads here
    # A key's echo waits for Textual's next frame, at most 60 a second by default; frames are
    # only drawn when something changed, so 120 shortens the wait for free (measured: echo
    # while an answer streams 11-18 ms instead of 18-23 ms). A user's own setting wins; ours
    # is read once, at import, and kept out of the environment later processes inherit.
    ours = "TEXTUAL_FPS" not in os.environ
    if ours:
        os.environ["TEXTUAL_FPS"] = "120"
    from codex_tui.app.codex_app import CodexApp

    if ours:
        os.environ.pop("TEXTUAL_FPS", None)
    from codex_tui.app.core import LaunchOptions

    gc.freeze()
    gc.enable()
    # Last step before Textual reads the terminal: what the frame read goes to the composer,
    # the rest is still in the terminal's input queue. Enter on the frame sends the text once
    # the session is ready, unless a prompt from the command line goes first (then it waits
    # in the composer as a draft).
    typed = frame.take_input() if frame is not None else None
    if frame is not None and typed is not None and typed.quit:
        boot.release_spare()
        frame.close()  # ctrl+d on the frame's empty composer: leave before the app starts
        return 0
    options = LaunchOptions(
        version=__version__,
        prompt=prompt,
        images=list(images),
        show_picker=resume == "picker",
        resume_path=resume_path,
        show_all=show_all,
        hide_agent_reasoning=config.hide_agent_reasoning,
        model_context_window=config.model_context_window,
        codex_home=str(config.codex_home),
        notifications=config.tui_notifications,
        draft=typed.text if typed else "",
        send_draft=bool(typed and typed.submitted and not prompt and not images),
        notice=notice,
        fork_picked=fork,
        stop_frame=frame.stop_painting if frame is not None else None,
    )
    app = CodexApp(boot, options)
    inline = config.tui_alternate_screen == "never"
    summary = app.run(inline=inline)
    boot.release_spare()
    if frame is not None:
        frame.close()
    if inline and summary is not None:
        # Inline (`--no-alt-screen`) the live area is cleared at exit and the whole
        # conversation printed in its place, so the terminal's scrollback keeps all of it
        # (Textual's inline area alone would keep only its last frame).
        print_transcript(summary.transcript)
    command = f"codex --remote {attach.address.shown}" if attach is not None else "codex"
    return print_exit_summary(summary, command)


@dataclass(frozen=True)
class RemoteTarget:
    """`--remote`: where the session runs, and the bearer token to show it."""

    address: RemoteAddress
    token: str | None


def _remote_target(remote: str | None, token_env: str | None, fork: bool) -> RemoteTarget | None:
    """The parsed `--remote` flags, or None without them.

    Raises:
        ValueError: A bad address, a token variable that is not set, or a combination
            this codex does not offer (one line for the user).
    """
    if remote is None:
        if token_env:
            raise ValueError("`--remote-auth-token-env` requires `--remote`.")
        return None
    from codex_core.frontend.home import CodexHomeError, find_codex_home
    from codex_core.servers.app_server.remote import RemoteError, parse_remote

    if fork:
        raise ValueError("`codex fork` is not available with `--remote`")
    try:
        home = find_codex_home()
    except CodexHomeError:
        home = None
    try:
        address = parse_remote(remote, home)
    except RemoteError as err:
        raise ValueError(str(err)) from None
    token = None
    if token_env:
        token = os.environ.get(token_env)
        if token is None:
            raise ValueError(f"environment variable `{token_env}` is not set")
    return RemoteTarget(address, token)


def print_transcript(lines: tuple[str, ...]) -> None:
    """The conversation's plain lines on stdout (control characters made visible)."""
    from codex_core.terminal_text import printable

    for line in lines:
        print(printable(line))
    if lines:
        print()


def print_exit_summary(summary: ExitSummary | None, command: str = "codex") -> int:
    """Print token usage and how to resume (or the error); returns the exit code."""
    from codex_core.terminal_text import printable
    from codex_tui.app.formatting import format_usage

    if summary is None:
        return 0
    if summary.usage is not None and (summary.usage.total_tokens or summary.usage.input_tokens):
        print(format_usage(summary.usage))
    if summary.session_id:
        print(f"To continue this session, run {command} resume {summary.session_id}")
    if summary.error:
        prefix = "codex:" if command == "codex" else "Error:"  # remote: 0.169's prefix
        print(f"{prefix} {printable(summary.error)}", file=sys.stderr)
        return 1
    return 0


def _resume_path(
    config: Config, resume: ResumeMode, resume_id: str | None, show_all: bool
) -> Path | None:
    if resume not in ("id", "last"):
        return None  # the session listing (rollout scanning, sqlite3) is not loaded for it
    from codex_core.frontend import (
        NotASessionError,
        SessionNotFoundError,
        find_session,
        last_session,
    )

    if resume == "id" and resume_id:
        try:
            return find_session(config.codex_home, resume_id).path
        except NotASessionError as err:
            raise LookupError(str(err)) from None
    if resume == "last":
        try:
            return last_session(config.codex_home, cwd=None if show_all else config.cwd).path
        except SessionNotFoundError:
            return None  # nothing to continue: start a new session, as the Codex CLI does
    return None


def inline_requested(cli_overrides: list[str]) -> bool:
    """Whether `tui.alternate_screen = "never"` comes from `-c` (`--no-alt-screen`) or
    config.toml, read before the config loads (the first frame needs to know)."""
    import tomllib

    for pair in reversed(cli_overrides):
        key, _, value = pair.partition("=")
        if key.strip() == "tui.alternate_screen":
            return value.strip().strip("\"'") == "never"
    from codex_core.frontend.home import CodexHomeError, find_codex_home

    try:
        text = (find_codex_home() / "config.toml").read_text(encoding="utf-8")
        tui = tomllib.loads(text).get("tui")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, CodexHomeError):
        return False
    return isinstance(tui, dict) and tui.get("alternate_screen") == "never"


def _log_to_file(config: Config) -> None:
    """Core logs go to CODEX_HOME/log/ so they never draw over the UI."""
    from codex_core.frontend.logfile import log_to_file

    log_to_file(config.codex_home, LOG_FILE)
