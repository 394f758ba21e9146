"""`codex exec`: run one task non-interactively and print its progress (human or JSONL)."""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from codex_tui.cli.args import CliParser, UsageError, add_common_flags
from codex_tui.cli.overrides import overrides_from_args, split_image_args

if TYPE_CHECKING:
    from codex_core.config import Config


NOT_IN_GIT = "Not inside a trusted directory and --skip-git-repo-check was not specified."
"""Codex 0.169's refusal outside a git repository (exit 1, nothing sent)."""

CYBER_ACCESS_PROGRAMS = ("standard", "daybreak_blue", "daybreak_red")
"""The values Codex 0.169's `--cyber-access-program` takes (the TypeScript SDK passes one)."""


def build_exec_parser() -> argparse.ArgumentParser:
    """`codex exec [OPTIONS] [PROMPT|-]` and `codex exec [OPTIONS] resume [--last | ID] [PROMPT]`.

    As in Codex 0.169, options may come before `resume`, after it, after the id, and between
    the words: everything is parsed in one pass (`parse_intermixed_args`).
    """
    parser = CliParser(
        prog="codex exec",
        description="Run codex non-interactively. The prompt comes from the argument, or from "
        "stdin when it is `-` or omitted with stdin piped; piped stdin beside a prompt is "
        "appended to it inside <stdin>…</stdin>. `codex exec resume --last|ID [PROMPT]` "
        "continues a recorded session.",
    )
    add_common_flags(parser)
    parser.add_argument(
        "--skip-git-repo-check", action="store_true", help="allow running outside a git repository"
    )
    parser.add_argument(
        "--json",
        "--experimental-json",
        dest="json",
        action="store_true",
        help="print events as JSON lines",
    )
    parser.add_argument(
        "-o", "--output-last-message", metavar="FILE", help="write the final message to FILE"
    )
    parser.add_argument("--output-schema", metavar="FILE", help="JSON schema for the final answer")
    parser.add_argument("--color", choices=["always", "never", "auto"], default="auto")
    parser.add_argument(
        "--add-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="another directory the sandbox lets commands write (workspace-write)",
    )
    parser.add_argument(
        "--ephemeral", action="store_true", help="do not record this session (no rollout file)"
    )
    parser.add_argument(
        "--thread-source",
        metavar="SOURCE",
        help="how a new session classifies itself (recorded as its thread_source; default user)",
    )
    parser.add_argument(
        "--cyber-access-program",
        metavar="PROGRAM",
        choices=CYBER_ACCESS_PROGRAMS,
        help="accepted for the Codex SDKs and ignored: an experimental program of OpenAI "
        "accounts that requests with an API key do not carry (as in Codex 0.169)",
    )
    parser.add_argument(
        "--last", action="store_true", help="with resume: continue the most recent session"
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="with resume --last: any directory's sessions, not only this one's",
    )
    parser.add_argument(
        "words",
        nargs="*",
        metavar="[resume [ID] | fork ID] [PROMPT]",
        help="the task (`-` reads it from stdin), or `resume` and a session id (unless --last), "
        "or `fork` and a session id or name (a copy continues)",
    )
    return parser


@functools.cache
def _exec_parser() -> argparse.ArgumentParser:
    """exec's parser, built once per process: the dispatcher (root options) and
    `review_words` look its options up before exec parses its command line with it (each
    used to build the whole parser again). Never changed after it is built (review builds
    its own)."""
    return build_exec_parser()


@functools.cache
def exec_options() -> Mapping[str, bool]:
    """Each option string of `codex exec` and whether it takes a value."""
    actions = _exec_parser()._option_string_actions
    return {name: action.nargs != 0 for name, action in actions.items()}


def review_words(argv: list[str]) -> list[str] | None:
    """`argv` without its `review` word when `review` is the first positional of a
    `codex exec` command line; None when it is not a review."""
    options = exec_options()
    index = 0
    while index < len(argv):
        arg = argv[index]
        if arg == "review":
            return argv[:index] + argv[index + 1 :]
        if arg == "--" or not arg.startswith("-") or arg == "-":
            return None
        name = arg.split("=", 1)[0] if arg.startswith("--") else arg[:2]
        attached = "=" in arg if arg.startswith("--") else len(arg) > 2
        takes_value = options.get(name, False) and not attached
        index += 2 if takes_value else 1
    return None


def parse_exec_args(argv: list[str]) -> tuple[argparse.Namespace, bool]:
    """The parsed command line and whether it continues a session (`session_id`, `prompt`
    set; `fork` says whether in a copy, `codex exec fork ID [PROMPT]`)."""
    ns = _exec_parser().parse_intermixed_args(argv)
    words: list[str] = ns.words
    ns.fork = bool(words) and words[0] == "fork"
    resume = bool(words) and words[0] == "resume"
    if ns.fork:
        if ns.last or ns.all:
            raise UsageError("codex exec fork: --last and --all go with `resume`; name the session")
        if len(words) not in (2, 3):
            raise UsageError("codex exec fork: expected `ID [PROMPT]` (an id or a thread name)")
        ns.session_id, ns.prompt = words[1], (words[2] if len(words) == 3 else None)
        return ns, True
    if resume:
        words = words[1:]
        limit = 1 if ns.last else 2
        if len(words) > limit or (not ns.last and not words):
            raise UsageError("codex exec resume: expected `--last [PROMPT]` or `ID [PROMPT]`")
        ns.session_id = None if ns.last else words[0]
        ns.prompt = words[-1] if len(words) == limit else None
    else:
        if ns.last or ns.all:
            raise UsageError("codex exec: --last and --all go with `resume`")
        if len(words) > 1:
            raise UsageError(
                f"codex exec: unexpected argument {words[1]!r}; quote the prompt as one argument"
            )
        ns.session_id = None
        ns.prompt = words[0] if words else None
    return ns, resume


def read_prompt(prompt: str | None) -> str:
    """The prompt: the argument, stdin for `-` or no argument, or both as Codex 0.169 joins
    them (the prompt, a blank line, then the piped data inside `<stdin>` … `</stdin>`)."""
    if prompt is None or prompt == "-":
        if prompt is None and sys.stdin.isatty():
            raise UsageError(
                "codex exec: no prompt given; pass it as an argument or pipe it on stdin"
            )
        text = sys.stdin.read()
        if not text.strip():
            raise UsageError("codex exec: the prompt read from stdin is empty")
        return text
    if sys.stdin is None or sys.stdin.isatty():
        return prompt
    data = sys.stdin.read()
    if not data:
        return prompt
    ending = "" if data.endswith("\n") else "\n"
    return f"{prompt}\n\n<stdin>\n{data}{ending}</stdin>"


def load_exec_config(ns: argparse.Namespace, prog: str) -> Config | None:
    """The run's config from its flags (`codex exec`, `codex exec review`), its log file set
    up and the git check passed; None once the one-line reason is printed.

    Raises:
        UsageError: --cd names no directory.
    """
    _setup_logging(ns.debug)
    from codex_core.config import ConfigError, load_config
    from codex_core.frontend.git import find_git_root
    from codex_tui.cli.config_flags import ConfigFlagError, config_pairs

    overrides = overrides_from_args(ns, approval="never")
    if overrides.cwd is not None and not overrides.cwd.is_dir():
        raise UsageError(f"{prog}: --cd {ns.cd}: no such directory")
    try:
        config = load_config(overrides, config_pairs(ns))
    except ConfigFlagError as err:
        print(err, file=sys.stderr)
        return None
    except ConfigError as err:
        print(f"codex: {err}", file=sys.stderr)
        return None
    from codex_core.frontend.logfile import log_with_tracebacks_in_file

    log_with_tracebacks_in_file(config.codex_home, "codex-exec.log", debug=ns.debug)
    if not ns.skip_git_repo_check and find_git_root(config.cwd) is None:
        print(NOT_IN_GIT, file=sys.stderr)
        return None
    return config


def main(argv: list[str]) -> int:
    """Entry for `codex exec`."""
    ns, resume = parse_exec_args(argv)
    config = load_exec_config(ns, "codex exec")
    if config is None:
        return 1
    from codex_core.tls_context import prepare_for

    # An https provider's CA bundle loads on the other core while the session's modules do.
    prepare_for(config.model_provider.resolved_base_url())
    config.ephemeral = bool(ns.ephemeral)
    if ns.thread_source:
        config.thread_source = ns.thread_source
    _add_dirs(config, ns.add_dir)
    resume_path = _resume_path(ns, config) if resume else None
    if resume_path is False:
        return 1
    if ns.fork and resume_path is not None:
        from codex_core.frontend.fork import fork_session

        try:
            resume_path, _original = fork_session(config.codex_home, resume_path)
        except OSError as err:
            print(f"codex: cannot fork the session: {err}", file=sys.stderr)
            return 1
    prompt = read_prompt(ns.prompt)
    images = [_image_path(p, config.cwd) for p in split_image_args(ns.image)]
    for image in images:
        if not (config.cwd / Path(image).expanduser()).is_file():
            print(f"codex: --image {image}: no such file", file=sys.stderr)
            return 1
    output_schema = _read_output_schema(ns.output_schema)
    if output_schema is False:
        return 1
    from codex_tui.exec.run import run_exec_session

    last_message = Path(ns.output_last_message) if ns.output_last_message else None
    try:
        return asyncio.run(
            run_exec_session(
                config,
                prompt,
                images=images,
                json_mode=ns.json,
                output_last_message=last_message,
                color=_color(ns.color),
                resume_path=resume_path,
                output_schema=output_schema or None,
            )
        )
    except KeyboardInterrupt:
        # Ctrl+C: the turn was interrupted and its end printed; exit 1 as the Codex CLI
        # 0.169 does (not the shell's 130).
        return 1


def _read_output_schema(path: str | None) -> dict[str, Any] | None | Literal[False]:
    """The JSON schema given with --output-schema; False (after one error line) when unusable."""
    if path is None:
        return None
    import json

    try:
        schema = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        print(f"codex: --output-schema {path}: {err.strerror}", file=sys.stderr)
        return False
    except json.JSONDecodeError as err:
        print(f"codex: --output-schema {path}: not valid JSON ({err})", file=sys.stderr)
        return False
    if not isinstance(schema, dict):
        print(f"codex: --output-schema {path}: the schema must be a JSON object", file=sys.stderr)
        return False
    return schema


def _resume_path(ns: argparse.Namespace, config: Config) -> Path | None | Literal[False]:
    """The rollout to continue; None starts a new session (`--last` finding none, as in
    Codex 0.169); False after an error line (an id that names no session)."""
    from codex_core.frontend import (
        NotASessionError,
        SessionNotFoundError,
        find_session,
        last_session,
    )
    from codex_core.terminal_text import printable

    try:
        if ns.last:
            found = last_session(config.codex_home, cwd=None if ns.all else config.cwd)
        else:
            found = find_session(config.codex_home, ns.session_id)
    except SessionNotFoundError as err:
        if ns.last:
            return None
        print(f"codex: {err}", file=sys.stderr)
        return False
    except NotASessionError as err:
        print(f"codex: {err}", file=sys.stderr)
        return False
    for warning in found.skipped_warnings:
        print(f"codex: {printable(warning)}", file=sys.stderr)
    return found.path


def _add_dirs(config: Config, dirs: list[str]) -> None:
    """`--add-dir DIR`: extra writable roots of a workspace-write sandbox."""
    if not dirs:
        return
    roots = getattr(config.sandbox_policy, "writable_roots", None)
    if roots is None:
        print(
            "codex: --add-dir only applies with --sandbox workspace-write; ignoring it",
            file=sys.stderr,
        )
        return
    for folder in dirs:
        path = str((config.cwd / Path(folder).expanduser()).resolve())
        if path not in roots:
            roots.append(path)


def _image_path(typed: str, cwd: Path) -> str:
    """An `-i` path as the user typed it (Codex 0.169 labels the image with it), made
    absolute only when `--cd` moved the session away from where it was typed."""
    here = Path(typed).expanduser().resolve()
    return typed if (cwd / Path(typed).expanduser()).resolve() == here else str(here)


def _color(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return sys.stderr.isatty()


def _setup_logging(debug: bool) -> None:
    logging.basicConfig(
        level=logging.DEBUG if debug else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
