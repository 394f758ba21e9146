"""`codex login`: store an API key in CODEX_HOME/auth.json; `codex login status` shows it."""

from __future__ import annotations

import sys

from codex_tui.cli_args import CliParser


def main(argv: list[str]) -> int:
    """Entry for `codex login [--api-key KEY | status]`."""
    parser = CliParser(prog="codex login", description="Save an OpenAI API key for codex.")
    parser.add_argument("--api-key", metavar="KEY", help="the key (read from stdin when omitted)")
    parser.add_argument("action", nargs="?", choices=["status"], help="show the stored login")
    ns = parser.parse_args(argv)
    from codex_core.auth import load_api_key, save_api_key
    from codex_core.frontend import CodexHomeError, find_codex_home
    from codex_core.model_provider import built_in_model_providers

    try:
        home = find_codex_home()
    except CodexHomeError as err:
        print(f"codex: {err}", file=sys.stderr)
        return 1
    if ns.action == "status":
        key = load_api_key(home, built_in_model_providers()["openai"])
        if key is None:
            print("Not logged in: set OPENAI_API_KEY or run `codex login --api-key KEY`")
            return 1
        print(f"Logged in with an API key ending in …{key[-4:]}")
        return 0
    key = ns.api_key
    if key is None:
        if sys.stdin.isatty():
            print("codex login: pass --api-key KEY or pipe the key on stdin", file=sys.stderr)
            return 2
        key = sys.stdin.read()
    key = key.strip()
    if not key:
        print("codex login: the API key is empty", file=sys.stderr)
        return 2
    try:
        path = save_api_key(home, key)
    except OSError as err:
        print(f"codex login: cannot write auth.json: {err.strerror}", file=sys.stderr)
        return 1
    print(f"Saved the API key to {path}")
    return 0
